"""Algorithm 1, stage III: consistency maintenance of the global memory.

Only facts that became active since the last scan are checked (they carry the Unchecked label), but
each against the whole memory, so the cost follows what changed. Per batch of such facts:
1. candidates: the ontology's declarations in Cypher (functional, inverse-functional, inverse,
   containment for granularity) and fact-embedding similarity >= δ, at most N per fact;
2. classification of each new fact against its candidates (a chat model, or the rules);
3. connected groups of confirmed pairs, each resolved at once (a chat model, or the rules);
4. one write transaction: the Conflict nodes, the proposed verdicts, the confident ones applied,
   and a new memory version so retrieval rebuilds its projection. Low-confidence or unsettled
   groups stay `needs_review` with their proposals, for a person (adjudication/review.py).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Protocol

from tqdm.auto import tqdm

from memgraph_neo4j.adjudication.groups import connected_groups
from memgraph_neo4j.adjudication.model import Group, PairJudgement, Resolution
from memgraph_neo4j.adjudication.similar import similar_candidates
from memgraph_neo4j.config import AdjudicationConfig
from memgraph_neo4j.contracts import AdjudicationReport, ConflictStatus, ConflictType, Review, Usage, Verdict
from memgraph_neo4j.memory.facts import relation_words
from memgraph_neo4j.memory.lease import leased
from memgraph_neo4j.memory.neighbours import SpaceVectors
from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.repository.conflicts import Candidate, ConflictRepository, ConflictRow, FactEvidence, VerdictRow


class Classifier(Protocol):
    model: str | None

    def classify(self, fact: FactEvidence, candidates: list[tuple[Candidate, FactEvidence]]) -> list[PairJudgement]:
        ...


class Resolver(Protocol):
    model: str | None

    def resolve(self, group: Group) -> Resolution: ...


def conflict_id(fact_ids: list[str]) -> str:
    return content_hash("conflict", *sorted(fact_ids))


def refined_text(fact: FactEvidence, relation: str) -> str:
    return f"{fact.head} {relation_words(relation)} {fact.tail}" + (f" ({fact.time})" if fact.time else "")


def verdict_rows(conflict: str, group: Group, resolution: Resolution, status: ConflictStatus) -> list[VerdictRow]:
    facts = {f.id: f for f in group.facts}
    rows = []
    for d in resolution.decisions:
        fact = facts[d.fact]
        refined = d.verdict == Verdict.REFINE and d.relation
        rows.append(VerdictRow(
            conflict, d.fact, str(d.verdict), str(status), resolution.rationale, resolution.model, into=d.into,
            relation=d.relation if refined else None, text=refined_text(fact, d.relation) if refined else None,
            schema_id=content_hash(fact.head_type, d.relation, fact.tail_type) if refined else None,
            valid_from=d.valid_from, valid_to=d.valid_to, ordinal=d.ordinal))
    return rows


def _symmetric(pairs: list[PairJudgement]) -> list[PairJudgement]:
    """One judgement per unordered pair (both facts new in one batch find each other): the surer one."""
    best: dict[frozenset[str], PairJudgement] = {}
    for p in pairs:
        key = frozenset((p.fact, p.candidate))
        if key not in best or p.confidence > best[key].confidence:
            best[key] = p
    return list(best.values())


class _CheckedOnce:
    """A SpaceVectors whose copy was checked (and read if needed) once, when this was made."""

    def __init__(self, vectors: SpaceVectors) -> None:
        self._vectors, self._copy = vectors, vectors.current()

    def current(self):
        return self._copy

    def index_served(self, seconds: float) -> None:
        self._vectors.index_served(seconds)


class Adjudicator:
    def __init__(self, repository: ConflictRepository, ontology: Ontology, classifier: Classifier,
                 resolver: Resolver, config: AdjudicationConfig | None = None,
                 fact_vectors: SpaceVectors | None = None) -> None:
        """`fact_vectors`: the writer's in-process copy of the space's fact vectors (candidates by meaning
        found exactly in process); None: through the Fact vector index."""
        self.repository, self.classifier, self.resolver = repository, classifier, resolver
        self.fact_vectors = fact_vectors
        self._vectors = fact_vectors  # within a run: the copy as checked at its start (run)
        self.rules = ontology.consistency_rules()
        self.config = config or AdjudicationConfig()
        self.last_scanned: list[str] = []  # observable: what the last run checked, and what it compared
        self.last_candidates: list[Candidate] = []
        self._compared: set[frozenset[str]] = set()

    @leased  # a scan outside an ingest holds the space's lease; inside one, the ingest's
    def run(self, rescan_all: bool = False, progress: bool = False) -> AdjudicationReport:
        """Check every unchecked active fact (all active facts with `rescan_all`)."""
        began, report = time.monotonic(), AdjudicationReport()
        self.last_scanned, self.last_candidates = [], []
        self._compared: set[frozenset[str]] = set()  # a pair of two unchecked facts is met twice per run
        if rescan_all:
            self.repository.queue_all()
        bar = tqdm(desc="adjudicate", unit="fact", disable=not progress)
        # the fact copy is checked against the space's count once per run, not once per round of 500: the
        # rounds change fact states, not vectors, and at 267k facts one count took 0.5-1.5 s (4-5 rounds
        # after every 256-passage batch of the 100k-passage scale run: a third of the server's time)
        self._vectors = _CheckedOnce(self.fact_vectors) if self.fact_vectors is not None else None
        try:
            while ids := self.repository.unchecked(self.config.batch):
                moved = self._batch(ids, report)
                self.repository.mark_checked(ids)
                bar.update(len(ids))
                bar.set_postfix(conflicts=report.conflicts, review=report.needs_review)
                # a short round read every unchecked fact, and only a verdict applied or restored makes
                # more (verdict_schemas): else the read that would find none is skipped (~5 ms a write)
                if len(ids) < self.config.batch and not moved:
                    break
        finally:
            self._vectors = self.fact_vectors
            bar.close()
        report.usage = sum((getattr(a, "usage", Usage()) for a in (self.classifier, self.resolver)), Usage())
        report.seconds = time.monotonic() - began
        return report

    def candidates(self, ids: list[str]) -> dict[str, list[Candidate]]:
        """Per fact: the symbolic candidates first, then similar ones, at most max_candidates."""
        limit = self.config.max_candidates
        found: dict[str, dict[str, Candidate]] = {i: {} for i in ids}
        for c in self.repository.symbolic_candidates(ids, self.rules, limit):
            found[c.fact].setdefault(c.candidate, c)
        for c in similar_candidates(self.repository, self._vectors, ids, self.config.similarity, limit):
            found[c.fact].setdefault(c.candidate, c)
        return {i: list(by_id.values())[:limit] for i, by_id in found.items() if by_id}

    def _resolve(self, group: Group) -> Resolution:
        if any(p.failed for p in group.pairs):
            return Resolution([], 0.0, "the model's classification was unusable: review it")
        if len(group.facts) > self.config.max_group:  # one call must see the whole group's evidence
            return Resolution([], 0.0, f"{len(group.facts)} facts in one group, more than max_group "
                                       f"{self.config.max_group}: review it")
        return self.resolver.resolve(group)

    def _batch(self, ids: list[str], report: AdjudicationReport) -> bool:
        """True: a verdict was applied or restored (fact states moved, which can mark facts unchecked)."""
        report.scanned += len(ids)
        self.last_scanned += ids
        candidates = {}
        for fact_id, found in self.candidates(ids).items():
            fresh = [c for c in found if frozenset((c.fact, c.candidate)) not in self._compared]
            self._compared.update(frozenset((c.fact, c.candidate)) for c in fresh)
            if fresh:
                candidates[fact_id] = fresh
        flat = [c for cs in candidates.values() for c in cs]
        self.last_candidates += flat
        report.candidates += len(flat)
        if not flat:
            return False
        evidence = self.repository.evidence({*candidates, *(c.candidate for c in flat)},
                                            self.config.evidence_per_fact, self.config.evidence_chars)
        judged = []
        for fact_id, found in candidates.items():
            pairs = [(c, evidence[c.candidate]) for c in found if c.candidate in evidence]
            if fact_id in evidence and pairs:
                judged += self.classifier.classify(evidence[fact_id], pairs)
        # a pair below the confidence threshold is ignored; one the model could not classify goes to review
        confirmed = [p for p in _symmetric(judged) if p.type != ConflictType.NONE
                     and (p.confidence >= self.config.min_confidence or p.failed)]
        report.dismissed += len(judged) - len(confirmed)
        by_pair = {(c.fact, c.candidate): c for c in flat}
        groups = connected_groups(confirmed)
        reviewed = self.repository.reviewed([conflict_id(ids) for ids, _ in groups]) if groups else {}
        conflicts, verdicts, apply, restore = [], [], [], []
        for fact_ids, pairs in groups:
            cid = conflict_id(fact_ids)
            if cid in reviewed:  # a person decided this one: detection does not override them
                status, review, kind = reviewed[cid]
                if status == ConflictStatus.OBSOLETE:  # its facts are back: as the person left it
                    restore.append(cid)
                    self._count(report, kind, review)
                    if review == Review.ACCEPTED:
                        apply.append(cid)
                continue
            group = Group([evidence[i] for i in fact_ids], pairs,
                          {(p.fact, p.candidate): by_pair[(p.fact, p.candidate)] for p in pairs
                           if (p.fact, p.candidate) in by_pair})
            resolution = self._resolve(group)
            settled = bool(resolution.decisions) and resolution.confidence >= self.config.min_confidence
            status = ConflictStatus.RESOLVED if settled else ConflictStatus.NEEDS_REVIEW
            # pairs point from the lower fact id: the same edges whichever of the two facts came first
            conflicts.append(ConflictRow(
                cid, str(group.type), str(ConflictStatus.OPEN if settled else status),
                min(p.confidence for p in pairs), "; ".join(sorted({p.reason for p in pairs}))[:2000],
                self.classifier.model, fact_ids,
                [{"a": min(p.fact, p.candidate), "b": max(p.fact, p.candidate), "type": str(p.type),
                  "confidence": p.confidence, "reason": p.reason, "rule": p.rule} for p in pairs]))
            verdicts += verdict_rows(cid, group, resolution, status)
            if settled:
                apply.append(cid)
            self._count(report, group.type, status)
            for d in resolution.decisions if settled else ():
                report.verdicts[str(d.verdict)] = report.verdicts.get(str(d.verdict), 0) + 1
        self.repository.record(conflicts, verdicts, apply, restore)
        return bool(apply or restore)

    @staticmethod
    def _count(report: AdjudicationReport, kind: str, outcome: str) -> None:
        """One conflict written, by type and by what it is now (resolved, to review, or dismissed)."""
        report.conflicts += 1
        report.by_type[str(kind)] = report.by_type.get(str(kind), 0) + 1
        if outcome in (ConflictStatus.RESOLVED, Review.ACCEPTED):
            report.resolved += 1
        elif outcome in (ConflictStatus.NEEDS_REVIEW, Review.REVERTED):
            report.needs_review += 1


def summary(report: AdjudicationReport) -> str:
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(Counter(report.by_type).items())) or "none"
    return (f"{report.scanned} facts checked, {report.candidates} candidates, {report.conflicts} conflicts "
            f"({kinds}): {report.resolved} resolved, {report.needs_review} to review")
