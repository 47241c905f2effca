"""Conflict detection reads and Conflict writes (cypher/adjudication/*), as typed rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.contracts import ConflictStatus, ConsistencyRules, FactState, Verdict
from memgraph_neo4j.repository.base import Repository, store_rows

# facts that can be in a conflict: judged facts are out until a revert brings them back
CANDIDATE_STATES = [str(FactState.ACTIVE), str(FactState.PENDING)]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stored fact that may conflict with a newly active one, and why it was found."""

    fact: str
    candidate: str
    rule: str  # functional | inverse_functional | inverse | similar
    granularity: bool = False  # the two values lie within one another (containment facts)
    finer: str | None = None  # which of the two facts has the finer value, when granularity
    cosine: float | None = None


@dataclass(frozen=True, slots=True)
class EvidencePassage:
    id: str
    title: str | None
    text: str


@dataclass(frozen=True, slots=True)
class FactEvidence:
    id: str
    text: str
    relation: str
    time: str | None
    state: str
    head_id: str
    head: str
    tail_id: str
    tail: str
    head_type: str
    tail_type: str
    valid_from: str | None
    valid_to: str | None
    passages: tuple[EvidencePassage, ...]


@dataclass(frozen=True, slots=True)
class PairRow:
    a: str
    b: str
    type: str
    confidence: float
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class ConflictRow:
    id: str
    type: str
    status: str
    confidence: float
    reason: str
    model: str | None
    facts: list[str]
    pairs: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class VerdictRow:
    conflict: str
    fact: str
    verdict: str
    status: str
    rationale: str
    model: str | None
    into: str | None = None  # merge: the fact that keeps the evidence
    relation: str | None = None  # refine: the more specific relation
    text: str | None = None  # refine: the fact's text with it
    schema_id: str | None = None  # refine: the schema of the refined relation
    valid_from: str | None = None  # qualify
    valid_to: str | None = None
    ordinal: str | None = None


@dataclass(frozen=True, slots=True)
class ConflictSummary:
    id: str
    type: str
    status: str
    confidence: float | None
    detected_at: str | None
    facts: list[str]


@dataclass
class ConflictDetail:
    id: str
    type: str
    status: str
    confidence: float | None
    reason: str | None
    rationale: str | None
    model: str | None
    detected_at: str | None
    resolved_at: str | None
    facts: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)


_VERDICT_PARAMS = {"discard": str(Verdict.DISCARD), "merge": str(Verdict.MERGE), "qualify": str(Verdict.QUALIFY),
                   "refine": str(Verdict.REFINE), "discarded": str(FactState.DISCARDED),
                   "superseded": str(FactState.SUPERSEDED), "resolved": str(ConflictStatus.RESOLVED)}


class ConflictRepository(Repository):
    def unchecked(self, limit: int) -> list[str]:
        rows = self.store.read("adjudication/unchecked_facts", space=self.space, active=str(FactState.ACTIVE),
                               limit=limit)
        return [r["id"] for r in rows]

    def queue_all(self) -> int:
        """Every active fact of the space becomes unchecked (a full rescan)."""
        return self.store.write("adjudication/mark_unchecked", space=self.space,
                                active=str(FactState.ACTIVE))[0]["queued"]

    def mark_checked(self, ids: Sequence[str]) -> None:
        self.store.write("adjudication/mark_checked", space=self.space, ids=list(ids))

    def symbolic_candidates(self, ids: Sequence[str], rules: ConsistencyRules, limit: int) -> list[Candidate]:
        rows = self.store.read("adjudication/symbolic_candidates", space=self.space, ids=list(ids),
                               states=CANDIDATE_STATES, functional=rules.functional,
                               inverse_functional=rules.inverse_functional, inverse_pairs=rules.inverse_pairs,
                               containment=rules.containment, max_candidates=limit)
        return [Candidate(r["fact"], r["candidate"], r["rule"], bool(r["granularity"]), r["finer"]) for r in rows]

    def similar_candidates(self, ids: Sequence[str], similarity: float, limit: int) -> list[Candidate]:
        rows = self.store.read("adjudication/similar_candidates", space=self.space, ids=list(ids),
                               states=CANDIDATE_STATES, similarity=similarity, max_candidates=limit,
                               fetch=max(limit * 5, 100))
        return [Candidate(r["fact"], r["candidate"], r["rule"], cosine=r["cosine"]) for r in rows]

    def fact_states(self, ids: Sequence[str]) -> dict[str, str]:
        return {r["id"]: r["state"] for r in self.store.read("adjudication/fact_states", space=self.space,
                                                               ids=sorted(set(ids)))}

    def evidence(self, ids: Sequence[str], per_fact: int, chars: int) -> dict[str, FactEvidence]:
        rows = self.store.read("adjudication/fact_evidence", space=self.space, ids=sorted(set(ids)),
                               per_fact=per_fact, chars=chars)
        return {r["id"]: FactEvidence(
            r["id"], r["text"], r["relation"], r["time"], r["state"], r["head_id"], r["head"], r["tail_id"],
            r["tail"], r["head_type"], r["tail_type"], r["valid_from"], r["valid_to"],
            tuple(EvidencePassage(p["id"], p["title"], p["text"]) for p in r["passages"] if p))
            for r in rows}

    def write_conflicts(self, conflicts: Sequence[ConflictRow]) -> None:
        self.store.write("adjudication/write_conflicts", space=self.space, rows=store_rows(conflicts))

    def record(self, conflicts: Sequence[ConflictRow], verdicts: Sequence[VerdictRow], apply: Sequence[str]) -> None:
        """Write the conflicts and their proposed verdicts, and apply those of the conflicts in `apply`, all in
        one transaction; a new memory version when anything was applied (retrieval rebuilds its projection)."""
        statements = [("adjudication/write_conflicts", {"space": self.space, "rows": store_rows(conflicts)}),
                      ("adjudication/propose_verdicts", {"space": self.space, "rows": store_rows(verdicts)})]
        if apply:
            applied = {"space": self.space, "ids": list(apply), **_VERDICT_PARAMS}
            statements += [("adjudication/apply_conflicts", applied), ("memory/bump_version", {"space": self.space})]
        self.store.write_many(statements)

    def propose_and_apply(self, verdicts: Sequence[VerdictRow], conflict_ids: Sequence[str]) -> int:
        """New proposals (a person's choice) and the conflicts' proposals applied, in one transaction."""
        results = self.store.write_many([
            ("adjudication/propose_verdicts", {"space": self.space, "rows": store_rows(verdicts)}),
            ("adjudication/apply_conflicts", {"space": self.space, "ids": list(conflict_ids), **_VERDICT_PARAMS}),
            ("memory/bump_version", {"space": self.space})])
        return results[1][0]["applied"] if results[1] else 0

    def revert(self, conflict_ids: Sequence[str], status: ConflictStatus) -> int:
        """Undo the applied verdicts exactly and set the conflicts' status, in one transaction."""
        results = self.store.write_many([
            ("adjudication/revert_conflicts", {"space": self.space, "ids": list(conflict_ids), "status": str(status)}),
            ("memory/bump_version", {"space": self.space})])
        return results[0][0]["reverted"] if results[0] else 0

    def set_status(self, conflict_id: str, status: ConflictStatus) -> bool:
        return bool(self.store.write("adjudication/set_status", space=self.space, id=conflict_id, status=str(status)))

    def delete_all(self) -> int:
        """Revert every applied verdict, then delete all Conflict nodes of the space (benchmarks start over)."""
        applied = [c.id for c in self.list(ConflictStatus.RESOLVED, limit=1_000_000)]
        if applied:
            self.revert(applied, ConflictStatus.DISMISSED)
        return self.store.write("adjudication/delete_conflicts", space=self.space)[0]["deleted"]

    def counts(self) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
        """Conflicts by (type, status), and applied verdicts by kind."""
        row = self.store.read("adjudication/conflict_counts", space=self.space)[0]
        return ({(t, s): n for t, s, n in row["conflicts"]}, {v: n for v, n in row["verdicts"]})

    def list(self, status: ConflictStatus | None = None, limit: int = 100) -> list[ConflictSummary]:
        rows = self.store.read("adjudication/list_conflicts", space=self.space,
                               status=str(status) if status else None, limit=limit)
        return [ConflictSummary(**r) for r in rows]

    def detail(self, conflict_id: str) -> ConflictDetail | None:
        rows = self.store.read("adjudication/conflict_detail", space=self.space, id=conflict_id)
        return ConflictDetail(**rows[0]) if rows else None
