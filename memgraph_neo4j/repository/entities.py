"""Entities of one memory space: writing them with their aliases and types, name and vector look-ups
for entity resolution, SAME_AS links and SIMILAR bridges (cypher/memory/*); the migration of own names
from Alias nodes to Entity.key (memory/alias_keys.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from memgraph_neo4j.repository.base import Repository, VectorPage, store_rows
from memgraph_neo4j.repository.batch import WriteBatch


@dataclass
class EntityRow:
    id: str
    name: str  # canonical name
    type: str
    aliases: list[str]  # surface forms, added to those already stored
    keys: list[str]  # its other normalised names: one Alias node each
    embedding: list[float] | None = None
    merged: dict[str, dict[str, str]] | None = None  # key -> {rule, evidence, with}: a name joined by similarity
    key: str | None = None  # its own normalised name (id = its hash): Entity.key, set when it is created


@dataclass(frozen=True)
class AliasHit:
    """A normalised name already stored: an entity's own (its key) or an Alias of it."""

    key: str
    entity_id: str
    type: str
    aliases: tuple[str, ...] = ()  # the surface forms the entity already has
    merged: bool = False  # the name joined the entity by similarity (its uses are recorded: memory/unmerge.py)


@dataclass(frozen=True)
class VectorQuery:
    id: str  # an entity id, or any tag the caller maps back (resolution uses "key:<name>")
    vector: list[float]


@dataclass(frozen=True)
class EvidenceQuery:
    """Would `key` (a name of this batch) share context with the stored entity `entity_id`: is that entity
    mentioned in one of `docs`, on a page titled `key`, beside one of the stored entities `context` (the
    name's neighbours), or named by one of `titles` (the name's pages)?"""

    key: str
    entity_id: str
    docs: list[str]
    context: list[str]
    titles: list[str] = ()


@dataclass(frozen=True)
class Neighbor:
    """A stored entity near a query vector (cosine, not Neo4j's (1 + cos) / 2 score)."""

    id: str  # the query's id
    neighbor: str
    type: str
    cosine: float


@dataclass(frozen=True)
class SimilarEdge:
    """SAME_AS (link-mode resolution) or SIMILAR (bridging) between two entities, weighted by cosine."""

    id: str
    neighbor: str
    cosine: float


class EntityRepository(Repository):
    def write_entities(self, rows: list[EntityRow]) -> None:
        self._write_rows("memory/write_entities", rows)

    def link_same_as(self, edges: list[SimilarEdge]) -> None:
        self._write_rows("memory/link_same_as", edges)

    def lookup_aliases(self, keys: list[str]) -> list[AliasHit]:
        return [AliasHit(r["key"], r["entity_id"], r["type"], tuple(r["aliases"] or ()), bool(r["merged"]))
                for r in self.store.read("memory/lookup_aliases", space=self.space, keys=keys)]

    def entity_neighbors(self, rows: list[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]:
        """Per query, stored entities of the space among its `fetch` nearest with cosine >= min_cosine,
        best first (ties: lower id). The space filter is inside the vector search, so other spaces
        cannot take the `fetch` places."""
        hits = self.store.read("memory/entity_neighbors", space=self.space, rows=store_rows(rows), fetch=fetch,
                               min_cosine=min_cosine)
        return [Neighbor(h["id"], h["neighbor"], h["type"], h["cosine"]) for h in hits]

    def entity_names(self, ids: list[str]) -> dict[str, str]:
        """The canonical name of each stored entity of these ids (unknown ids are left out)."""
        return {r["id"]: r["name"] for r in self.store.read("memory/entity_names", space=self.space, ids=ids)}

    def merge_evidence(self, queries: list[EvidenceQuery]) -> dict[tuple[str, str], str]:
        """(key, entity id) -> the context they share ("same document", "title", "shared neighbour"); pairs that
        share none are left out."""
        rows = self.store.read("memory/merge_evidence", space=self.space, rows=store_rows(queries))
        return {(r["key"], r["entity_id"]): r["evidence"] for r in rows if r["evidence"]}

    def entity_vector_pages(self) -> Iterator[VectorPage]:
        """Pages of (ids, types, embeddings) of the entities of the space that have an embedding, in id order
        (repository/base.py: why paged)."""
        return self._vector_pages("memory/entity_vectors")

    def entity_count(self) -> int:
        return self.store.read("memory/entity_count", space=self.space)[0]["entities"]

    def deleted_since(self, version: int) -> list[str] | None:
        """Ids of the entities deleted after `version` (their tombstones); None when tombstones after it were
        pruned (then not all are known)."""
        row = self.store.read("memory/deleted_entities", space=self.space, since=version)[0]
        return None if row["pruned"] > version else list(row["ids"])

    def bridge_similar(self, edges: list[SimilarEdge]) -> None:
        self._write_rows("memory/bridge_similar", edges)

    # ----- the same, as statements of one batch's transaction (repository/batch.py) -------------
    def add_entities(self, batch: WriteBatch, new: list[EntityRow], stored: list[EntityRow]) -> None:
        """`new`: entities none of whose names is stored (created); `stored`: entities that exist and
        gain aliases or names (merged)."""
        batch.add_rows("memory/create_entities", new)
        batch.add_rows("memory/write_entities", stored)

    def add_same_as(self, batch: WriteBatch, edges: list[SimilarEdge]) -> None:
        batch.add_rows("memory/link_same_as", edges)

    def add_bridges(self, batch: WriteBatch, edges: list[SimilarEdge]) -> None:
        batch.add_rows("memory/bridge_similar", edges)


def alias_spaces(store) -> list[str]:
    """The spaces that hold Alias nodes."""
    return [r["space"] for r in store.read("memory/alias_spaces")]


def unfolded_aliases(store, space: str, after: str, batch: int) -> list[tuple[str, list[str]]]:
    """Up to `batch` Alias nodes of `space` after the key `after` that record no merge nor unmerge, in key
    order: (key, ids of the entities it names)."""
    return [(r["key"], list(r["entity_ids"])) for r in
            store.read("memory/unfolded_aliases", space=space, after=after, batch=batch)]


def fold_alias_keys(store, space: str, rows: list[dict[str, str]]) -> int:
    """Each {key, entity_id}: the Alias of the entity's own name becomes its key. Returns how many."""
    return store.write("memory/fold_alias_keys", space=space, rows=rows)[0]["folded"] if rows else 0
