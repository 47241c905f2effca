"""Spaces and documents: list them, delete a space, and the statements of a document's retraction
(cypher/admin/list_*, delete_space; cypher/memory/retract_*; ids by a prefix: repository/ids.py).

Retraction marks what the deleted passages supported with the label `Retracting` in the same
transaction that deletes them; every later step works on the marked nodes and is idempotent, so a
retraction that died half-way is finished by running it again (memory/retract.py runs the steps).

Each step that changes what retrieval holds is a stamped write of its own (repository/batch.py): its
transaction bumps the memory version first and stamps `changed` on the nodes it changes, and every node
it deletes (passages, entities) leaves a Tombstone with that stamp. So the database at every version a
reader can see is what the copies at that version hold, and they follow a retraction by what it changed
(repository/changes.py), not by reading the space whole. The last step prunes old tombstones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.contracts import ConflictStatus, FactState, SchemaState, supporting
from memgraph_neo4j.repository.base import BATCH, Repository
from memgraph_neo4j.repository.batch import WriteBatch
from memgraph_neo4j.store import GraphStore

ALL = 2**62  # LIMIT for "every row"
# tombstones are kept for this many versions and at most this many per space; a copy older than the pruned
# ones is read whole (a copy that far behind would mostly be: FULL_FRACTION in retrieval/changes.py)
TOMBSTONE_VERSIONS = 10_000
TOMBSTONE_COUNT = 100_000


@dataclass(frozen=True, slots=True)
class SpaceSummary:
    name: str
    documents: int = 0
    passages: int = 0
    facts: int = 0  # every state, retracted ones included
    entities: int = 0
    version: int = 0  # memory version (writes so far)
    deleting: bool = False  # a delete holds the space, or died half-way (run it again to finish)


@dataclass(frozen=True, slots=True)
class DocumentSummary:
    id: str
    title: str | None
    source: str | None
    passages: int
    facts: int  # distinct facts its passages evidence
    ingested_at: str | None


@dataclass(frozen=True, slots=True)
class SourcedDocument(DocumentSummary):
    """A document listed by its source, with the metadata it was ingested with (ingest/document.Document)."""

    metadata: dict[str, Any] = field(default_factory=dict)


def list_spaces(store: GraphStore) -> list[SpaceSummary]:
    """Every memory space of the database, by name."""
    spaces = []
    for row in store.read("admin/list_spaces"):
        counts = {c["kind"]: int(c["n"] or 0) for c in row["counts"]}
        spaces.append(SpaceSummary(row["space"], **counts | {"deleting": bool(counts.get("deleting"))}))
    return spaces


def delete_space(store: GraphStore, space: str, graph_pattern: str | None = None) -> list[str]:
    """Delete everything a space holds (in batches) but its ingest lease, then drop its GDS projections
    (names matching `graph_pattern`); returns the projections dropped. The steps only: memory/lease.py's
    `delete_space` runs them under the space's lease, so that no ingest writes meanwhile."""
    store.run_implicit("admin/delete_space", space=space)
    if graph_pattern is None:
        return []
    return [r["dropped"] for r in store.write("admin/drop_space_graphs", pattern=graph_pattern)]


class DocumentRepository(Repository):
    version = 0  # the memory version the retraction's last stamped transaction made

    # ----- listing -----------------------------------------------------------------------------
    def list(self, limit: int | None = None, skip: int = 0,
             source: str | None = None) -> tuple[int, list[DocumentSummary]]:
        """(documents in the space, the page of them from `skip` in ingest order; `limit` None: all). With
        `source`: only those whose source starts with it, as SourcedDocuments (their metadata too)."""
        rows = self.store.read("admin/list_documents", space=self.space, skip=skip,
                               limit=ALL if limit is None else limit, source=source)
        total = rows[0]["total"] if rows else self.count(source)
        if source is None:
            return total, [DocumentSummary(**{k: v for k, v in r.items() if k not in ("total", "metadata")})
                           for r in rows]
        return total, [SourcedDocument(**{k: v for k, v in r.items() if k not in ("total", "metadata")},
                                       metadata=json.loads(r["metadata"]) if r["metadata"] else {}) for r in rows]

    def count(self, source: str | None = None) -> int:
        rows = self.store.read("admin/list_documents", space=self.space, skip=0, limit=1, source=source)
        return rows[0]["total"] if rows else 0

    # ----- retraction, in the order memory/retract.py runs it ----------------------------------
    def passages_of(self, doc_ids: list[str]) -> list[str]:
        return [r["id"] for r in self.store.read("memory/retract_targets", space=self.space, doc_ids=doc_ids)]

    def _stamped(self, *statements: tuple[str, dict]) -> list[list[dict]]:
        """The statements in one stamped transaction (a new memory version first, `$stamp` on each); their
        results, without the bump's."""
        batch = WriteBatch(self.store, self.space, stamped=True)
        for name, params in statements:
            batch.add(name, **params)
        results = batch.commit()
        if batch.version is not None:
            self.version = batch.version
        return results[1:]

    def delete_passages(self, passage_ids: list[str]) -> int:
        """Step 1: mark what the passages support, delete them (tombstones); one transaction per batch."""
        deleted = 0
        for start in range(0, len(passage_ids), BATCH):
            rows = [{"id": i} for i in passage_ids[start:start + BATCH]]
            deleted += self._stamped(("memory/retract_passages", {"rows": rows}))[0][0]["deleted"]
        return deleted

    def close_conflicts_and_retract(self) -> tuple[int, int, int]:
        """Step 2, one stamped transaction: the conflicts (any status but obsolete) of facts left without
        evidence have their verdicts undone and become obsolete, those facts become retracted, the active
        facts of those conflicts are queued for a new conflict check. Returns (conflicts closed, facts
        retracted, facts to recheck)."""
        # dismissed too: a conflict over a retracted fact is gone whatever a person said of it; its review
        # stays on it, so restore_reviewed brings it back as they left it after a re-ingest
        closed = [str(ConflictStatus.OBSOLETE)]
        ids = [r["id"] for r in self.store.read("memory/retract_conflicts", space=self.space, closed=closed)]
        by_id = {"ids": ids}
        results = self._stamped(
            ("memory/retract_conflict_schemas", by_id),
            ("adjudication/revert_conflicts", {**by_id, "status": str(ConflictStatus.OBSOLETE)}),
            ("memory/retract_conflict_schemas", by_id),
            ("memory/retract_facts", {"retracted": str(FactState.RETRACTED)}),
            ("memory/retract_recheck", {**by_id, "active": str(FactState.ACTIVE)}),
        )
        return len(ids), results[3][0]["retracted"], results[4][0]["rechecked"]

    def recount_schemas(self) -> int:
        """Step 3: the frequency of every marked schema, recounted."""
        return self._stamped(("memory/retract_recount", {"supporting": supporting()}))[0][0]["schemas"]

    def pend_under_candidates(self) -> int:
        """Step 3, after memory/promotion.demote_below_bar: the active facts of marked candidate schemas to
        pending (an undone refine brings one back there). Returns the facts made pending."""
        row = self._stamped(("memory/retract_demote", {
            "candidate": str(SchemaState.CANDIDATE), "active": str(FactState.ACTIVE),
            "pending": str(FactState.PENDING)}))[0]
        return row[0]["facts"] if row else 0

    def delete_orphans(self, batch: int = BATCH) -> tuple[int, int]:
        """Step 4: marked entities nothing live grounds any more go, with their aliases; batch by batch.
        Returns (entities deleted, aliases deleted)."""
        entities = aliases = 0
        while True:
            row = self._stamped(("memory/retract_entities", {"batch": batch,
                                                             "retracted": str(FactState.RETRACTED)}))[0][0]
            entities, aliases = entities + row["deleted"], aliases + row["aliases"]
            if row["entities"] < batch:
                return entities, aliases

    def unmark(self, batch: int = BATCH * 10) -> int:
        """Step 5: the remaining marks go; batch by batch (labels no retrieval copy holds: unstamped)."""
        total = 0
        while (done := self.store.write("memory/retract_unmark", space=self.space, batch=batch)[0]["unmarked"]):
            total += done
            if done < batch:
                break
        return total

    def delete_documents(self, doc_ids: list[str]) -> tuple[int, int]:
        """Last step, one stamped transaction: the Document nodes go, old tombstones are pruned and the
        memory version moves on. Returns (documents deleted, new version)."""
        results = self._stamped(("memory/retract_documents", {"doc_ids": doc_ids}),
                                ("memory/prune_tombstones", {"versions": TOMBSTONE_VERSIONS,
                                                             "count": TOMBSTONE_COUNT}))
        return results[0][0]["documents"], self.version
