"""Spaces and documents: list them, delete a space, and the statements of a document's retraction
(cypher/admin/list_*, match_documents, delete_space; cypher/memory/retract_*).

Retraction marks what the deleted passages supported with the label `Retracting` in the same
transaction that deletes them; every later step works on the marked nodes and is idempotent, so a
retraction that died half-way is finished by running it again (memory/retract.py runs the steps).
"""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_neo4j.contracts import ConflictStatus, FactState, SchemaState
from memgraph_neo4j.repository.base import BATCH, Repository
from memgraph_neo4j.store import GraphStore

ALL = 2**62  # LIMIT for "every row"


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
    # ----- listing -----------------------------------------------------------------------------
    def list(self, limit: int | None = None, skip: int = 0) -> tuple[int, list[DocumentSummary]]:
        """(documents in the space, the page of them from `skip` in ingest order; `limit` None: all)."""
        rows = self.store.read("admin/list_documents", space=self.space, skip=skip,
                               limit=ALL if limit is None else limit)
        total = rows[0]["total"] if rows else self.count()
        return total, [DocumentSummary(**{k: v for k, v in r.items() if k != "total"}) for r in rows]

    def count(self) -> int:
        rows = self.store.read("admin/list_documents", space=self.space, skip=0, limit=1)
        return rows[0]["total"] if rows else 0

    def matching(self, prefixes: list[str], limit: int = 2) -> dict[str, dict[str, str | None]]:
        """Per prefix (or full id), the documents it names (at most `limit`), id -> title."""
        rows = self.store.read("admin/match_documents", space=self.space, prefixes=prefixes, limit=limit)
        return {r["prefix"]: {d["id"]: d["title"] for d in r["documents"]} for r in rows}

    # ----- retraction, in the order memory/retract.py runs it ----------------------------------
    def passages_of(self, doc_ids: list[str]) -> list[str]:
        return [r["id"] for r in self.store.read("memory/retract_targets", space=self.space, doc_ids=doc_ids)]

    def delete_passages(self, passage_ids: list[str]) -> int:
        """Step 1: mark what the passages support, delete them; one transaction per batch."""
        rows = self.store.write_batched("memory/retract_passages", [{"id": i} for i in passage_ids],
                                        batch_size=BATCH, space=self.space)
        return sum(r["deleted"] for r in rows)

    def close_conflicts_and_retract(self) -> tuple[int, int, int]:
        """Step 2, one transaction: the conflicts (any status but obsolete) of facts left without evidence have their verdicts
        undone and become obsolete, those facts become retracted, the active facts of those conflicts are
        queued for a new conflict check. Returns (conflicts closed, facts retracted, facts to recheck)."""
        # dismissed too: a conflict over a retracted fact is gone whatever a person said of it; its review
        # stays on it, so restore_reviewed brings it back as they left it after a re-ingest
        closed = [str(ConflictStatus.OBSOLETE)]
        ids = [r["id"] for r in self.store.read("memory/retract_conflicts", space=self.space, closed=closed)]
        by_id = {"space": self.space, "ids": ids}
        results = self.store.write_many([
            ("memory/retract_conflict_schemas", by_id),
            ("adjudication/revert_conflicts", {**by_id, "status": str(ConflictStatus.OBSOLETE), "stamp": None}),
            ("memory/retract_conflict_schemas", by_id),
            ("memory/retract_facts", {"space": self.space, "retracted": str(FactState.RETRACTED)}),
            ("memory/retract_recheck", {**by_id, "active": str(FactState.ACTIVE)}),
        ])
        return len(ids), results[3][0]["retracted"], results[4][0]["rechecked"]

    def recount_schemas(self) -> int:
        """Step 3: the frequency of every marked schema, recounted."""
        return self.store.write("memory/retract_recount", space=self.space)[0]["schemas"]

    def demote_schemas(self, min_frequency: int) -> tuple[int, int]:
        """Step 3: marked stable schemas below the bar back to candidate, their active facts to pending.
        Returns (schemas demoted, facts made pending)."""
        row = self.store.write("memory/retract_demote", space=self.space, min_frequency=min_frequency,
                               stable=str(SchemaState.STABLE), candidate=str(SchemaState.CANDIDATE),
                               active=str(FactState.ACTIVE), pending=str(FactState.PENDING))
        return (row[0]["schemas"], row[0]["facts"]) if row else (0, 0)

    def delete_orphans(self, batch: int = BATCH) -> tuple[int, int]:
        """Step 4: marked entities nothing live grounds any more go, with their aliases; batch by batch.
        Returns (entities deleted, aliases deleted)."""
        entities = aliases = 0
        while True:
            row = self.store.write("memory/retract_entities", space=self.space, batch=batch,
                                   retracted=str(FactState.RETRACTED))[0]
            entities, aliases = entities + row["deleted"], aliases + row["aliases"]
            if row["entities"] < batch:
                return entities, aliases

    def unmark(self, batch: int = BATCH * 10) -> int:
        """Step 5: the remaining marks go; batch by batch."""
        total = 0
        while (done := self.store.write("memory/retract_unmark", space=self.space, batch=batch)[0]["unmarked"]):
            total += done
            if done < batch:
                break
        return total

    def delete_documents(self, doc_ids: list[str]) -> tuple[int, int]:
        """Last step, one transaction: the Document nodes go and the memory version moves on (retrieval
        rebuilds its projection). Returns (documents deleted, new version)."""
        results = self.store.write_many([("memory/retract_documents", {"space": self.space, "doc_ids": doc_ids}),
                                         ("memory/bump_version", {"space": self.space, "stamped": False})])
        return results[0][0]["documents"], results[1][0]["version"]
