"""Conflict detection reads and Conflict writes (cypher/adjudication/*), as typed rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.contracts import (
    ConflictStatus,
    ConsistencyRules,
    FactState,
    Review,
    SchemaState,
    Verdict,
    supporting,
)
from memgraph_neo4j.repository.base import Repository, store_rows
from memgraph_neo4j.store import STAMP, GraphStore

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
    facts: list[str]  # texts
    fact_ids: list[str] = field(default_factory=list)  # in the order of `facts`


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
    review: str | None = None  # a person's last decision (contracts.Review), kept by detection
    facts: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)


_VERDICT_PARAMS = {"discard": str(Verdict.DISCARD), "merge": str(Verdict.MERGE), "qualify": str(Verdict.QUALIFY),
                   "refine": str(Verdict.REFINE), "discarded": str(FactState.DISCARDED),
                   "superseded": str(FactState.SUPERSEDED), "resolved": str(ConflictStatus.RESOLVED),
                   "candidate": str(SchemaState.CANDIDATE)}
_SCHEMA_PARAMS = {"candidate": str(SchemaState.CANDIDATE), "stable": str(SchemaState.STABLE),
                  "active": str(FactState.ACTIVE), "pending": str(FactState.PENDING), "supporting": supporting()}
_RESTORE_PARAMS = {"obsolete": str(ConflictStatus.OBSOLETE), "rejected": str(Review.REJECTED),
                   "accepted": str(Review.ACCEPTED), "dismissed": str(ConflictStatus.DISMISSED),
                   "open": str(ConflictStatus.OPEN), "needs_review": str(ConflictStatus.NEEDS_REVIEW)}


class ConflictRepository(Repository):
    def __init__(self, store: GraphStore, space: str, threshold: int | None = None, percentile: float | None = None,
                 open_world: bool = True) -> None:
        """The promotion rule (memory/promotion.promotion_bar) decides the state of a schema a refine
        verdict creates: candidate until its support reaches the bar (open), or stable by declaration."""
        super().__init__(store, space)
        self.promotion = {"threshold": threshold, "percentile": percentile if threshold is None else None,
                          "open": open_world}

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

    def reviewed(self, ids: Sequence[str]) -> dict[str, tuple[str, str, str]]:
        """Of these conflicts, those a person reviewed: id -> (status, review, type)."""
        rows = self.store.read("adjudication/reviewed_conflicts", space=self.space, ids=sorted(set(ids)))
        return {r["id"]: (r["status"], r["review"], r["type"]) for r in rows}

    def write_conflicts(self, conflicts: Sequence[ConflictRow]) -> None:
        self.store.write("adjudication/write_conflicts", space=self.space, rows=store_rows(conflicts),
                         obsolete=str(ConflictStatus.OBSOLETE))

    def _applied(self, ids: Sequence[str]) -> list[tuple[str, dict]]:
        """apply_conflicts, then the schemas of every fact the verdicts judged recounted and promoted."""
        return [("adjudication/apply_conflicts", {"space": self.space, "ids": list(ids), **_VERDICT_PARAMS,
                                                  "open": self.promotion["open"], "stamp": STAMP}),
                self._recount(ids)]

    def _recount(self, ids: Sequence[str]) -> tuple[str, dict]:
        """The schemas of every fact of these conflicts recounted (a verdict moved their support), after the
        verdicts were applied or reverted, in their transaction; promotion's rule holds for them."""
        return ("adjudication/verdict_schemas", {"space": self.space, "ids": list(ids), **_SCHEMA_PARAMS,
                                                 **self.promotion, "stamp": STAMP})

    def _bump(self) -> tuple[str, dict]:
        """The first statement of a transaction that applies or reverts verdicts: a new memory version,
        stamped on every fact and schema they change (retrieval copies catch up by reading those; verdicts
        delete no node)."""
        return ("memory/bump_version", {"space": self.space, "stamped": True})

    def record(self, conflicts: Sequence[ConflictRow], verdicts: Sequence[VerdictRow], apply: Sequence[str],
               restore: Sequence[str] = ()) -> None:
        """Write the conflicts and their proposed verdicts, bring back the obsolete conflicts in `restore` as
        the person who reviewed them left them, and apply those in `apply`, all in one transaction; a new
        memory version when anything was applied (retrieval rebuilds its projection)."""
        statements = [("adjudication/write_conflicts", {"space": self.space, "rows": store_rows(conflicts),
                                                        "obsolete": str(ConflictStatus.OBSOLETE)}),
                      ("adjudication/propose_verdicts", {"space": self.space, "rows": store_rows(verdicts)})]
        if restore:
            statements.append(("adjudication/restore_reviewed", {"space": self.space, "ids": list(restore),
                                                                 **_RESTORE_PARAMS}))
        if apply:
            statements = [self._bump(), *statements, *self._applied(apply)]
        self.store.write_many(statements)

    def _review(self, ids: Sequence[str], review: Review | None) -> list[tuple[str, dict]]:
        if review is None:
            return []
        return [("adjudication/mark_reviewed", {"space": self.space, "ids": list(ids), "review": str(review)})]

    def propose_and_apply(self, verdicts: Sequence[VerdictRow], conflict_ids: Sequence[str],
                          review: Review | None = None) -> int:
        """New proposals (a person's choice) and the conflicts' proposals applied, in one transaction;
        `review`: a person decided (detection keeps their decision)."""
        results = self.store.write_many([
            self._bump(), ("adjudication/propose_verdicts", {"space": self.space, "rows": store_rows(verdicts)}),
            *self._applied(conflict_ids), *self._review(conflict_ids, review)])
        return results[2][0]["applied"] if results[2] else 0

    def revert(self, conflict_ids: Sequence[str], status: ConflictStatus, review: Review | None = None) -> int:
        """Undo the applied verdicts exactly and set the conflicts' status, in one transaction (the schemas of
        their facts recounted)."""
        results = self.store.write_many([
            self._bump(),
            ("adjudication/revert_conflicts", {"space": self.space, "ids": list(conflict_ids), "status": str(status),
                                               "stamp": STAMP}),
            self._recount(conflict_ids),
            *self._review(conflict_ids, review)])
        return results[1][0]["reverted"] if results[1] else 0

    def set_status(self, conflict_id: str, status: ConflictStatus, review: Review | None = None) -> bool:
        results = self.store.write_many([
            ("adjudication/set_status", {"space": self.space, "id": conflict_id, "status": str(status)}),
            *self._review([conflict_id], review)])
        return bool(results[0])

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
