"""Top-K facts, schemas and passages of one space for a query vector, with the memory's state.

Two ways (RetrievalConfig.layer_search):
- "index": the Neo4j vector indexes (HNSW) in one round trip with the memory-state read. They are
  shared by all spaces, so each search filters by space inside the index (other spaces cannot crowd
  a space's hits out; a space small against its `fetch` is searched exactly). They hold every state,
  so each layer over-fetches, filters states, and asks again with a wider fetch only when that left
  it short and the space may hold more.
- "local": exact top-k in process. The three layers are read once per memory version
  (cypher/retrieval/export_layers) and each query is one matrix-vector product per layer. On the
  MuSiQue memory (28k vectors, 43 MB) that takes ~3 ms instead of ~15-20 ms for three HNSW searches
  on the server, and it is exact: the approximate index can miss a near neighbour, this cannot.
  Spaces with more than `snapshot_max_vectors` vectors are searched through the indexes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.layers import (
    ExportRow,
    FactMatch,
    LayerHits,
    LayerRepository,
    LayerRequest,
    MemoryState,
    PassageMatch,
    SchemaMatch,
)
from memgraph_neo4j.repository.statistics import SpaceCounts

__all__ = ["Layer", "LayerSearch", "LayerSnapshot", "top_rows"]

MAX_FETCH = 4096  # most vector hits asked for one layer (a layer whose allowed states are that rare gets fewer)


def top_rows(scores: np.ndarray, allowed: np.ndarray | None, k: int) -> np.ndarray:
    """Row numbers of the k best scores among the allowed rows, best first (ties: lower row first)."""
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
        k = min(k, int(allowed.sum()))
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    return part[np.lexsort((part, -scores[part]))]


@dataclass
class Layer:
    ids: list[str]
    states: np.ndarray  # str per row (None for passages)
    matrix: np.ndarray  # (rows, dimension) float32, unit rows
    texts: list[str | None]
    fields: list[list[Any]]
    _masks: dict[tuple[str, ...], np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def from_rows(cls, rows: Sequence[ExportRow], dimension: int) -> Layer:
        for r in rows:
            if len(r.embedding) != dimension:
                raise ValueError(f"{r.layer} {r.id!r} has a {len(r.embedding)}-dimensional embedding, the "
                                 f"query {dimension}: the space was embedded with another model; query with that one")
        matrix = np.asarray([r.embedding for r in rows], dtype=np.float32).reshape(len(rows), dimension)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.maximum(norms, 1e-12)  # cosine, whatever the provider stored
        return cls([r.id for r in rows], np.asarray([r.state for r in rows], dtype=object), matrix,
                   [r.text for r in rows], [r.fields for r in rows])

    def mask(self, states: Iterable[str]) -> np.ndarray:
        """Rows in one of `states`; kept per state set (isin over strings costs ~1 ms a call)."""
        key = tuple(sorted(states))
        if key not in self._masks:
            self._masks[key] = np.isin(self.states, list(key))
        return self._masks[key]

    def search(self, vector: np.ndarray, k: int, states: Iterable[str] | None = None) -> list[tuple[int, float]]:
        if k <= 0 or not self.ids:
            return []
        scores = self.matrix @ vector
        allowed = None if states is None else self.mask(states)
        return [(int(i), float(scores[i])) for i in top_rows(scores, allowed, k)]


class LayerSnapshot:
    """The vector layers of one space at one memory version."""

    def __init__(self, rows: Iterable[ExportRow], dimension: int) -> None:
        by_layer: dict[str, list[ExportRow]] = {"fact": [], "schema": [], "passage": []}
        for row in rows:
            by_layer[row.layer].append(row)
        self.dimension = dimension
        self.facts, self.schemas, self.passages = (Layer.from_rows(by_layer[name], dimension)
                                                   for name in ("fact", "schema", "passage"))

    def search(self, vector: Sequence[float], requests: Sequence[LayerRequest]) -> LayerHits:
        q = np.asarray(vector, dtype=np.float32)
        if q.shape != (self.dimension,):
            raise ValueError(f"query vector has {q.size} dimensions, the layers {self.dimension}")
        q = q / max(float(np.linalg.norm(q)), 1e-12)
        hits = LayerHits()
        f, s, p = self.facts, self.schemas, self.passages
        for r in requests:
            if r.layer == "facts":
                hits.facts = [FactMatch(f.ids[i], score, f.texts[i], f.fields[i][0], f.fields[i][1])
                              for i, score in f.search(q, r.k, r.states)]
            elif r.layer == "schemas":
                hits.schemas = [SchemaMatch(s.ids[i], score, *s.fields[i][:3])
                                for i, score in s.search(q, r.k, r.states)]
            else:
                hits.passages = [PassageMatch(p.ids[i], score, p.fields[i][0], p.texts[i])
                                 for i, score in p.search(q, r.k, r.states)]
        return hits


class LayerSearch:
    """The layers for one query, exact in process or from the indexes (see the module doc)."""

    def __init__(self, repository: LayerRepository, dimension: int, config: RetrievalConfig,
                 graph_prefix: str, counts: Callable[[int], SpaceCounts], feed: Any = None) -> None:
        self.repository, self.dimension, self.config = repository, dimension, config
        self.graph_prefix = graph_prefix  # the memory-state read also lists these projections
        self.counts = counts  # the space's sizes at a memory version
        self._snapshot: tuple[int, LayerSnapshot | None] | None = None
        self.exports = 0  # observable: tests assert one export per memory version

    def snapshot(self, version: int) -> LayerSnapshot | None:
        """The space's vector layers at `version` (read once per version), or None when the space holds
        more than `snapshot_max_vectors` vectors."""
        if self._snapshot is None or self._snapshot[0] != version:
            self._snapshot = None  # the old copy can go before the new one is read
            snapshot = None
            if self.counts(version).vectors <= self.config.snapshot_max_vectors:
                snapshot = LayerSnapshot(self.repository.export(), self.dimension)
                self.exports += 1
            self._snapshot = (version, snapshot)
        return self._snapshot[1]

    def search(self, vector: list[float], requests: Sequence[LayerRequest],
               state: MemoryState | None = None) -> tuple[MemoryState, LayerHits]:
        """`state`: the memory state the caller read already (the in-process search then reads nothing;
        a search through the indexes reads its own, with the hits)."""
        if self.config.layer_search != "local":
            return self._from_indexes(vector, requests)
        if self._snapshot is not None and self._snapshot[1] is None:
            # too large for a copy at the last version seen: the index search reads the state itself
            state, hits = self._from_indexes(vector, requests)
            if state.version == self._snapshot[0]:
                return state, hits
        elif state is None:
            state = self.repository.state(self.graph_prefix)
        snapshot = self.snapshot(state.version)
        if snapshot is None:
            return self._from_indexes(vector, requests)
        return state, snapshot.search(vector, requests)

    def _from_indexes(self, vector: list[float],
                      requests: Sequence[LayerRequest]) -> tuple[MemoryState, LayerHits]:
        """Asks the indexes for more hits only when filtering by state left a layer short and the space
        may hold more."""
        config = self.config
        fetch = {r.layer: max(config.over_fetch * r.k, config.min_fetch if r.k else 1) for r in requests}
        while True:
            asked = [LayerRequest(r.layer, r.k, fetch[r.layer], r.states) for r in requests]
            state, hits = self.repository.state_and_search(self.graph_prefix, vector, asked)
            short = [r.layer for r in requests if len(getattr(hits, r.layer)) < r.k
                     and hits.scanned[r.layer] >= fetch[r.layer] and fetch[r.layer] < MAX_FETCH]
            if not short:
                return state, hits
            for layer in short:
                fetch[layer] = min(fetch[layer] * 8, MAX_FETCH)
