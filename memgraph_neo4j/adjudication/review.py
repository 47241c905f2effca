"""A person's side of adjudication: list, show, accept, reject and revert conflicts.

Every change is reversible: applying a verdict keeps each fact's previous state, relation, text,
qualifiers and schema on the conflict's INVOLVES edge, and `revert` restores them exactly. Each
decision is recorded on the conflict (contracts.Review): detection never overrides it, and after a
retraction made the conflict obsolete, ingesting its facts again brings it back as the person left it
(accepted: their verdicts applied again; rejected: dismissed; reverted: needs_review). A decision reads
then writes the conflict's facts: it holds the space's lease (memory/lease.py), so no ingest interleaves.
"""

from __future__ import annotations

from memgraph_neo4j.contracts import ConflictStatus, Review, Verdict
from memgraph_neo4j.memory.lease import leased
from memgraph_neo4j.repository.conflicts import ConflictDetail, ConflictRepository, ConflictSummary, VerdictRow
from memgraph_neo4j.repository.ids import Candidate, IdRepository, pick, short_ids
from memgraph_neo4j.validation import SurfaceError

PERSON = "person"


class ConflictError(SurfaceError):
    """A review step that cannot be done; the message says why and what to do instead (in the words of the
    caller's surface: validation.SurfaceError)."""


class ConflictReview:
    def __init__(self, repository: ConflictRepository) -> None:
        self.repository = repository

    def list(self, status: ConflictStatus | str | None = None, limit: int = 100) -> list[ConflictSummary]:
        if status and status not in set(ConflictStatus):
            raise ConflictError(f"status {status!r}: one of {', '.join(ConflictStatus)}")
        return self.repository.list(ConflictStatus(status) if status else None, limit)

    def resolve(self, conflict_id: str) -> str:
        """The conflict id that `conflict_id` (an id, or a unique prefix of at least 6 characters) names."""
        return IdRepository(self.repository.store, self.repository.space).resolve("conflict", conflict_id)

    def show(self, conflict_id: str) -> ConflictDetail:
        """One conflict, by its id or a unique prefix of it."""
        detail = self.repository.detail(conflict_id)  # a full id: one read
        if detail is None:
            detail = self.repository.detail(self.resolve(conflict_id))
        if detail is None:  # deleted between the two reads
            raise ConflictError(f"no conflict {conflict_id!r} in space {self.repository.space!r}", "list_conflicts",
                                space=self.repository.space)
        return detail

    @leased
    def accept(self, conflict_id: str, keep: str | None = None) -> ConflictDetail:
        """Apply the conflict's proposed verdicts, or, with `keep` (a fact id or a unique prefix of one),
        keep that fact and discard the others."""
        detail = self.show(conflict_id)
        conflict_id = detail.id
        if detail.status == ConflictStatus.OBSOLETE:  # memory/retract.py undid it: nothing left to judge
            raise ConflictError(f"conflict {conflict_id} is obsolete: a fact it involved was retracted")
        if detail.status == ConflictStatus.RESOLVED and keep is None:
            return detail
        kept = self._fact(detail, keep) if keep is not None else None  # before anything is written
        if any(f["applied"] for f in detail.facts):
            self.repository.revert([conflict_id], ConflictStatus.NEEDS_REVIEW)
        rows = []
        if kept is not None:
            rows = [VerdictRow(conflict_id, f["id"], str(Verdict.KEEP if f["id"] == kept else Verdict.DISCARD),
                               str(ConflictStatus.RESOLVED), f"a person kept {kept}", PERSON) for f in detail.facts]
        elif not any(f["proposed"] for f in detail.facts):
            raise ConflictError(f"conflict {conflict_id} has no proposed verdicts", "keep",
                                facts=", ".join(short_ids([f["id"] for f in detail.facts]).values()))
        self.repository.propose_and_apply(rows, [conflict_id], Review.ACCEPTED)
        return self.show(conflict_id)

    @leased
    def reject(self, conflict_id: str) -> ConflictDetail:
        """Not a conflict after all: undo anything applied and dismiss it."""
        detail = self.show(conflict_id)
        conflict_id = detail.id
        if any(f["applied"] for f in detail.facts):
            self.repository.revert([conflict_id], ConflictStatus.DISMISSED, Review.REJECTED)
        else:
            self.repository.set_status(conflict_id, ConflictStatus.DISMISSED, Review.REJECTED)
        return self.show(conflict_id)

    @leased
    def revert(self, conflict_id: str) -> ConflictDetail:
        """Restore every fact of the conflict exactly as it was; the conflict waits for review."""
        detail = self.show(conflict_id)
        conflict_id = detail.id
        if not any(f["applied"] for f in detail.facts):
            raise ConflictError(f"conflict {conflict_id} has nothing applied to revert (status {detail.status})")
        self.repository.revert([conflict_id], ConflictStatus.NEEDS_REVIEW, Review.REVERTED)
        return self.show(conflict_id)

    @staticmethod
    def _fact(detail: ConflictDetail, given: str) -> str:
        """The fact of the conflict that `given` (its id, or a unique prefix) names: the rule of repository/ids.py
        over the conflict's facts."""
        facts = [Candidate(f["id"], f["text"]) for f in detail.facts]
        matches = [c for c in facts if isinstance(given, str) and c.id.startswith(given)]
        return pick("fact", given, matches, f"conflict {short_ids([detail.id])[detail.id]}", among=facts)
