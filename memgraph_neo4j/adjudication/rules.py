"""Deterministic adjudication for the unambiguous cases, used when no chat model is configured.

Classification:
- the same relation between the same (or same-named) head and tail, at compatible times: duplicate;
- two values of different entity types (a Date and a Place under one open-extraction relation): none;
- two values of a functional (or inverse-functional) relation linked by containment facts: granularity;
- two dated values of a temporal relation: temporal;
- any other clash the ontology declares: mutual exclusion, which no rule can settle.
Resolution: duplicates merge into the most informative fact; granularity refines the coarser value's
relation (born_in -> born_in_broader) so both stand; temporal conflicts get valid_from / valid_to from
the facts' times. Everything else becomes `needs_review`: a person decides, the rules do not guess.
"""

from __future__ import annotations

import re

from memgraph_neo4j.adjudication.model import FactDecision, Group, PairJudgement, Resolution
from memgraph_neo4j.contracts import ConflictType, ConsistencyRules, Verdict
from memgraph_neo4j.memory.normalize import normalize_entity_name
from memgraph_neo4j.memory.resolve import GENERIC_TYPE
from memgraph_neo4j.repository.conflicts import Candidate, FactEvidence

MODEL = "rules"
BROADER = "_broader"  # suffix of the relation a coarser value is refined to
_YEAR = re.compile(r"\b(\d{3,4})\b")


def _same_entity(a_id: str, a_name: str, b_id: str, b_name: str) -> bool:
    return a_id == b_id or normalize_entity_name(a_name) == normalize_entity_name(b_name)


def _times_compatible(a: FactEvidence, b: FactEvidence) -> bool:
    return a.time is None or b.time is None or a.time == b.time


def is_duplicate(a: FactEvidence, b: FactEvidence) -> bool:
    return (a.relation == b.relation and _same_entity(a.head_id, a.head, b.head_id, b.head)
            and _same_entity(a.tail_id, a.tail, b.tail_id, b.tail) and _times_compatible(a, b))


def time_span(time: str | None) -> tuple[str | None, str | None]:
    """valid_from / valid_to from a time qualifier: "2017" -> (2017, None); "2017-2021" -> (2017, 2021);
    "until 2001" -> (None, 2001)."""
    if not time:
        return None, None
    years = _YEAR.findall(time)
    if not years:
        return time.strip(), None
    if re.match(r"\s*\(?\s*(?:until|till|up to|through|before)\b", time, re.IGNORECASE):
        return None, years[-1]  # "until 2001": an end (memory/timespan.py reads it so for as_of)
    return years[0], years[1] if len(years) > 1 else None


class RuleClassifier:
    model = MODEL

    def __init__(self, rules: ConsistencyRules) -> None:
        self.rules = rules

    def classify(self, fact: FactEvidence, candidates: list[tuple[Candidate, FactEvidence]]) -> list[PairJudgement]:
        out = []
        for candidate, other in candidates:
            kind, reason = self._kind(fact, candidate, other)
            out.append(PairJudgement(fact.id, other.id, kind, 1.0, reason, candidate.rule))
        return out

    def _kind(self, fact: FactEvidence, candidate: Candidate, other: FactEvidence) -> tuple[ConflictType, str]:
        if is_duplicate(fact, other):
            return ConflictType.DUPLICATE, "same relation between the same entities"
        if candidate.rule == "similar":
            return ConflictType.NONE, "similar wording only"
        if _different_kinds(fact, other, candidate.rule):
            # born in 1930 / born in Gothenburg: open extraction put two attributes under one relation
            return ConflictType.NONE, "the values are of different types"
        if candidate.granularity:
            return ConflictType.GRANULARITY, "the values lie within one another"
        if fact.relation in self.rules.temporal and fact.time and other.time and fact.time != other.time:
            return ConflictType.TEMPORAL, f"dated {fact.time} and {other.time}"
        return ConflictType.MUTUAL_EXCLUSION, f"the ontology allows one value ({candidate.rule} {fact.relation})"


def _different_kinds(fact: FactEvidence, other: FactEvidence, rule: str) -> bool:
    """The two clashing values have different, specific entity types (a Date and a Place)."""
    mine, theirs = (fact.head_type, other.head_type) if rule == "inverse_functional" else (fact.tail_type,
                                                                                          other.tail_type)
    return GENERIC_TYPE not in (mine, theirs) and mine != theirs


def _informative(fact: FactEvidence) -> tuple:
    # the fact that absorbs duplicates: dated first, then better evidenced, then the lower id
    return (fact.time is None, -len(fact.passages), fact.id)


class RuleResolver:
    model = MODEL

    def resolve(self, group: Group) -> Resolution:
        kind = {p.type for p in group.pairs}
        if kind == {ConflictType.DUPLICATE}:
            keep = min(group.facts, key=_informative)
            decisions = [FactDecision(f.id, Verdict.KEEP) if f.id == keep.id
                         else FactDecision(f.id, Verdict.MERGE, into=keep.id) for f in group.facts]
            return Resolution(decisions, 1.0, f"duplicates merged into {keep.text!r}", MODEL)
        if kind == {ConflictType.TEMPORAL} and all(f.time for f in group.facts):
            decisions = [FactDecision(f.id, Verdict.QUALIFY, valid_from=time_span(f.time)[0],
                                      valid_to=time_span(f.time)[1]) for f in group.facts]
            return Resolution(decisions, 1.0, "each value holds for its own time", MODEL)
        if kind == {ConflictType.GRANULARITY}:
            return self._refine(group)
        return Resolution([], 0.0, "no rule settles this conflict: review it", MODEL)

    def _refine(self, group: Group) -> Resolution:
        coarser: set[str] = set()
        for pair in group.pairs:
            candidate = group.candidate(pair.fact, pair.candidate)
            finer = candidate.finer if candidate is not None else None
            if finer not in (pair.fact, pair.candidate):
                return Resolution([], 0.0, "cannot tell which value is finer: review it", MODEL)
            coarser.add(pair.candidate if finer == pair.fact else pair.fact)
        if len(coarser) == len(group.facts):
            return Resolution([], 0.0, "no finest value: review it", MODEL)
        decisions = [FactDecision(f.id, Verdict.REFINE, relation=f.relation + BROADER) if f.id in coarser
                     else FactDecision(f.id, Verdict.KEEP) for f in group.facts]
        return Resolution(decisions, 1.0, "the coarser values stand as broader ones", MODEL)
