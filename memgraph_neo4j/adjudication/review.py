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

PERSON = "person"


class ConflictError(ValueError):
    """A review step that cannot be done; the message says why and what to do instead."""


class ConflictReview:
    def __init__(self, repository: ConflictRepository) -> None:
        self.repository = repository

    def list(self, status: ConflictStatus | str | None = None, limit: int = 100) -> list[ConflictSummary]:
        return self.repository.list(ConflictStatus(status) if status else None, limit)

    def show(self, conflict_id: str) -> ConflictDetail:
        detail = self.repository.detail(conflict_id)
        if detail is None:
            raise ConflictError(f"no conflict {conflict_id!r} in space {self.repository.space!r}: "
                                "`memgraph-neo4j conflicts list` shows the ids")
        return detail

    @leased
    def accept(self, conflict_id: str, keep: str | None = None) -> ConflictDetail:
        """Apply the conflict's proposed verdicts, or, with `keep` (a fact id or a unique prefix of one),
        keep that fact and discard the others."""
        detail = self.show(conflict_id)
        if detail.status == ConflictStatus.OBSOLETE:  # memory/retract.py undid it: nothing left to judge
            raise ConflictError(f"conflict {conflict_id} is obsolete: a fact it involved was retracted")
        if detail.status == ConflictStatus.RESOLVED and keep is None:
            return detail
        if any(f["applied"] for f in detail.facts):
            self.repository.revert([conflict_id], ConflictStatus.NEEDS_REVIEW)
        rows = []
        if keep is not None:
            kept = self._fact(detail, keep)
            rows = [VerdictRow(conflict_id, f["id"], str(Verdict.KEEP if f["id"] == kept else Verdict.DISCARD),
                               str(ConflictStatus.RESOLVED), f"a person kept {kept}", PERSON) for f in detail.facts]
        elif not any(f["proposed"] for f in detail.facts):
            raise ConflictError(f"conflict {conflict_id} has no proposed verdicts: accept it with --keep FACT_ID "
                                f"(one of {', '.join(f['id'][:12] for f in detail.facts)})")
        self.repository.propose_and_apply(rows, [conflict_id], Review.ACCEPTED)
        return self.show(conflict_id)

    @leased
    def reject(self, conflict_id: str) -> ConflictDetail:
        """Not a conflict after all: undo anything applied and dismiss it."""
        detail = self.show(conflict_id)
        if any(f["applied"] for f in detail.facts):
            self.repository.revert([conflict_id], ConflictStatus.DISMISSED, Review.REJECTED)
        else:
            self.repository.set_status(conflict_id, ConflictStatus.DISMISSED, Review.REJECTED)
        return self.show(conflict_id)

    @leased
    def revert(self, conflict_id: str) -> ConflictDetail:
        """Restore every fact of the conflict exactly as it was; the conflict waits for review."""
        detail = self.show(conflict_id)
        if not any(f["applied"] for f in detail.facts):
            raise ConflictError(f"conflict {conflict_id} has nothing applied to revert (status {detail.status})")
        self.repository.revert([conflict_id], ConflictStatus.NEEDS_REVIEW, Review.REVERTED)
        return self.show(conflict_id)

    @staticmethod
    def _fact(detail: ConflictDetail, prefix: str) -> str:
        matches = [f["id"] for f in detail.facts if f["id"].startswith(prefix)]
        if len(matches) != 1:
            raise ConflictError(f"{prefix!r} names {len(matches)} facts of conflict {detail.id}; give one of "
                                f"{', '.join(f['id'] for f in detail.facts)}")
        return matches[0]
