"""What detection, classification and resolution pass between them (pure data)."""

from __future__ import annotations

from dataclasses import dataclass, field

from memgraph_neo4j.contracts import ConflictType, Verdict
from memgraph_neo4j.repository.conflicts import Candidate, FactEvidence

# a group's type when its pairs differ: the most consequential first
TYPE_PRIORITY = (ConflictType.MUTUAL_EXCLUSION, ConflictType.TEMPORAL, ConflictType.GRANULARITY,
                 ConflictType.DUPLICATE)


@dataclass(frozen=True, slots=True)
class PairJudgement:
    """How a candidate relates to a newly active fact."""

    fact: str
    candidate: str
    type: ConflictType
    confidence: float
    reason: str
    rule: str
    failed: bool = False  # no usable classification: recorded for review, not ignored as unsure


@dataclass
class Group:
    """A connected set of facts in conflict, with the pairs that connect them."""

    facts: list[FactEvidence]
    pairs: list[PairJudgement]
    candidates: dict[tuple[str, str], Candidate] = field(default_factory=dict)  # (fact, candidate) -> why

    @property
    def type(self) -> ConflictType:
        types = {p.type for p in self.pairs}
        return next(t for t in TYPE_PRIORITY if t in types)

    def candidate(self, a: str, b: str) -> Candidate | None:
        return self.candidates.get((a, b)) or self.candidates.get((b, a))


@dataclass(frozen=True, slots=True)
class FactDecision:
    fact: str
    verdict: Verdict
    into: str | None = None
    relation: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    ordinal: str | None = None


@dataclass(frozen=True, slots=True)
class Resolution:
    """Verdicts for every fact of a group; `decisions` empty means a person must decide."""

    decisions: list[FactDecision]
    confidence: float
    rationale: str
    model: str | None = None
