"""Reads of the Fact, Schema and Passage vector layers for retrieval, as typed rows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.repository.base import Repository

LAYERS = ("facts", "schemas", "passages")  # each searched in its own index (cypher/schema/1*_embedding.cypher)


@dataclass(frozen=True, slots=True)
class FactMatch:
    id: str
    score: float  # cosine similarity to the query
    text: str | None
    head_id: str
    tail_id: str


@dataclass(frozen=True, slots=True)
class SchemaMatch:
    id: str
    score: float
    head_type: str
    relation: str
    tail_type: str

    @property
    def text(self) -> str:
        return f"{self.head_type} -{self.relation}-> {self.tail_type}"


@dataclass(frozen=True, slots=True)
class PassageMatch:
    id: str
    score: float
    title: str | None
    text: str | None


@dataclass
class LayerHits:
    facts: list[FactMatch] = field(default_factory=list)
    schemas: list[SchemaMatch] = field(default_factory=list)
    passages: list[PassageMatch] = field(default_factory=list)
    scanned: dict[str, int] = field(default_factory=dict)  # index hits of the space per layer, before states


@dataclass(frozen=True, slots=True)
class LayerRequest:
    """One layer of a search: keep the k best of the space's `fetch` nearest whose state is in `states`."""

    layer: str  # "facts" | "schemas" | "passages"
    k: int
    fetch: int
    states: Sequence[str] | None = None  # None: any (passages have no state)


@dataclass(frozen=True, slots=True)
class MemoryState:
    version: int  # bumped by every write that changes the memory
    graphs: tuple[str, ...]  # GDS projections whose names start with the prefix asked for


def _match(layer: str, row: dict[str, Any]) -> FactMatch | SchemaMatch | PassageMatch:
    if layer == "facts":
        return FactMatch(row["id"], row["score"], row["text"], row["head_id"], row["tail_id"])
    if layer == "schemas":
        return SchemaMatch(row["id"], row["score"], row["head_type"], row["relation"], row["tail_type"])
    return PassageMatch(row["id"], row["score"], row["title"], row["text"])


def _hits(rows: list[dict[str, Any]], asked: set[str]) -> LayerHits:
    hits = LayerHits()
    for row in rows:
        layer = row["layer"]
        if layer not in asked:
            continue
        getattr(hits, layer).extend(_match(layer, r) for r in row["rows"]
                                    if layer != "facts" or (r["head_id"] and r["tail_id"]))
        hits.scanned[layer] = row["scanned"]
    return hits


@dataclass(frozen=True, slots=True)
class ExportRow:
    """One vector of the space for the in-process search (cypher/retrieval/export_layers)."""

    layer: str  # "fact" | "schema" | "passage"
    id: str
    state: str | None
    text: str | None
    embedding: list[float]
    fields: list[Any]  # fact: head id, tail id; schema: head type, relation, tail type; passage: title


class LayerRepository(Repository):
    def state(self, graph_prefix: str) -> MemoryState:
        """The memory's version and this space's projections (`graph_prefix`), without a search."""
        return self.state_and_search(graph_prefix, None, [])[0]

    def state_and_search(self, graph_prefix: str, vector: list[float] | None,
                         requests: Sequence[LayerRequest]) -> tuple[MemoryState, LayerHits]:
        """The memory state and the layers' index hits, in one round trip (cypher/retrieval/memory_layers).
        A layer not requested is not searched (fetch 0)."""
        by_layer = {r.layer: r for r in requests}
        unknown = set(by_layer) - set(LAYERS)
        if unknown:
            raise ValueError(f"no vector layer named {', '.join(sorted(unknown))}; layers are {', '.join(LAYERS)}")
        fetch = {name: by_layer[name].fetch if name in by_layer else 0 for name in LAYERS}
        k = {name: by_layer[name].k if name in by_layer else 0 for name in LAYERS}
        states = {name: list(r.states) if (r := by_layer.get(name)) and r.states is not None else None
                  for name in LAYERS}
        row = self.store.read("retrieval/memory_layers", space=self.space, prefix=graph_prefix, vector=vector,
                              fetch=fetch, k=k, states=states)[0]
        return MemoryState(row["version"], tuple(row["graphs"])), _hits(row["layers"], set(by_layer))

    def version(self) -> int:
        """The memory's write version alone (what per-version caches key on)."""
        return self.store.read("memory/memory_version", space=self.space)[0]["version"]

    def export(self) -> Iterator[ExportRow]:
        for r in self.store.read("retrieval/export_layers", space=self.space):
            yield ExportRow(r["layer"], r["id"], r["state"], r["text"], r["embedding"], r["fields"])
