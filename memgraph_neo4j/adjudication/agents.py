"""The detection-classification and resolution agents over any chat model (paper §4.2.2).

Replies are validated pydantic models. A reply that does not validate is asked for again
(`max_retries`), then recorded: the classifier's symbolic candidates become `needs_review`
conflicts, a failed resolution leaves its conflict `needs_review`. Token usage adds up in `usage`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from memgraph_neo4j.adjudication.model import FactDecision, Group, PairJudgement, Resolution
from memgraph_neo4j.contracts import ConflictType, Usage, Verdict
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.llm.resilience import RetriesExhausted, with_retries
from memgraph_neo4j.memory.normalize import relation_key
from memgraph_neo4j.prompts import adjudication as prompt
from memgraph_neo4j.prompts.json_reply import parse_json_object
from memgraph_neo4j.repository.conflicts import Candidate, FactEvidence

Reply = TypeVar("Reply", bound=BaseModel)
T = TypeVar("T")


def fact_view(label: str, fact: FactEvidence) -> prompt.FactView:
    return prompt.FactView(label=label, text=fact.text, relation=fact.relation, time=fact.time,
                           passages=[f"{p.title or ''}: {p.text}" for p in fact.passages])


class _Unusable(ValueError):
    """A reply that does not validate (asked again, like a failed call)."""


class _Agent:
    def __init__(self, chat: ChatClient, max_retries: int = 2, backoff: float = 0.5,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.chat, self.max_retries, self.backoff, self._sleep = chat, max_retries, backoff, sleep
        self.model = chat.model
        self.usage = Usage()
        self._lock = threading.Lock()

    def _ask(self, system: str, user: str, reply: type[Reply], check: Callable[[Reply], T]) -> T:
        """The reply validated by its model and then by `check` (which raises ValueError on a reply that
        parses but says too little). A failed call or an unusable reply is tried again up to max_retries
        times with the extraction's backoff (llm/resilience.py; an open circuit is not retried), then
        ValueError: the callers record that for review."""
        def attempt() -> T:
            result = self.chat.complete_json(system, user, reply)
            with self._lock:
                self.usage = self.usage + result.usage
            try:
                return check(reply.model_validate(parse_json_object(result.text)))
            except (ValueError, ValidationError) as exc:
                raise _Unusable(str(exc).splitlines()[0]) from exc

        try:
            return with_retries(attempt, self.max_retries, self.backoff, self._sleep)[0]
        except RetriesExhausted as failed:
            if isinstance(failed.error, _Unusable):
                raise ValueError(f"{self.model}: unusable reply after {failed.attempts} attempts "
                                 f"({failed.error})") from None
            raise ValueError(f"{self.model}: model call failed after {failed.attempts} attempts "
                             f"({' '.join(f'{type(failed.error).__name__}: {failed.error}'.split())[:300]})") from None


class ChatClassifier(_Agent):
    def classify(self, fact: FactEvidence, candidates: list[tuple[Candidate, FactEvidence]]) -> list[PairJudgement]:
        labels = {f"C{i}": (c, other) for i, (c, other) in enumerate(candidates, 1)}
        user = prompt.classify_prompt(fact_view("NEW", fact), [fact_view(k, o) for k, (_, o) in labels.items()])

        def judgements(reply: prompt.ClassificationReply) -> list[PairJudgement]:
            given = {p.candidate: p for p in reply.pairs if p.candidate in labels}
            if set(given) != set(labels):
                raise ValueError(f"classified {sorted(given)}, not every candidate of {sorted(labels)}")
            return [PairJudgement(fact.id, labels[k][1].id, p.type, p.confidence, p.reason, labels[k][0].rule)
                    for k, p in given.items()]
        try:
            return self._ask(prompt.CLASSIFY_SYSTEM, user, prompt.ClassificationReply, judgements)
        except ValueError as exc:  # recorded, not guessed: what the ontology flagged goes to review
            return [PairJudgement(fact.id, other.id, ConflictType.MUTUAL_EXCLUSION, 0.0, str(exc), c.rule, failed=True)
                    for c, other in candidates if c.rule != "similar"]


class ChatResolver(_Agent):
    def resolve(self, group: Group) -> Resolution:
        labels = {f"F{i}": f for i, f in enumerate(group.facts, 1)}
        label_of = {f.id: k for k, f in labels.items()}
        pairs = [f"{label_of[p.fact]} vs {label_of[p.candidate]}: {p.type} ({p.reason})" for p in group.pairs]
        user = prompt.resolve_prompt([fact_view(k, f) for k, f in labels.items()], pairs)
        def resolution(reply: prompt.ResolutionReply) -> Resolution:
            return Resolution(self._decisions(reply, labels), reply.confidence, reply.rationale, self.model)
        try:
            return self._ask(prompt.RESOLVE_SYSTEM, user, prompt.ResolutionReply, resolution)
        except ValueError as exc:
            return Resolution([], 0.0, str(exc), self.model)

    @staticmethod
    def _decisions(reply: prompt.ResolutionReply, labels: dict[str, FactEvidence]) -> list[FactDecision]:
        given = {v.fact: v for v in reply.verdicts if v.fact in labels}
        if set(given) != set(labels):
            raise ValueError(f"verdicts for {sorted(given)}, not for every fact of {sorted(labels)}")
        decisions = []
        for label, fact in labels.items():
            v = given[label]
            if v.verdict == Verdict.MERGE and v.into not in labels:
                raise ValueError(f"{label} merges into {v.into!r}, which is not in the group")
            relation = relation_key(v.relation) if v.verdict == Verdict.REFINE and v.relation else None
            if v.verdict == Verdict.REFINE and not relation:
                raise ValueError(f"{label} is refined without a relation")
            decisions.append(FactDecision(fact.id, v.verdict, into=labels[v.into].id if v.into in labels else None,
                                          relation=relation, valid_from=v.valid_from, valid_to=v.valid_to,
                                          ordinal=v.ordinal))
        return decisions
