"""Top-K facts, schemas and passages of one space for a query vector, with the memory's state.

Two ways (RetrievalConfig.layer_search):
- "index": the Neo4j vector indexes (HNSW) in one round trip with the memory-state read. They are
  shared by all spaces, so each search filters by space inside the index (other spaces cannot crowd
  a space's hits out; a space small against its `fetch` is searched exactly). They hold every state,
  so each layer over-fetches, filters states, and asks again with a wider fetch only when that left
  it short and the space may hold more.
- "local": exact top-k in process. The three layers are read once (cypher/retrieval/export_layers)
  and then kept up to date from the changes (LayerSnapshot.apply: the rows each write touched,
  upserted and removed in place), and each query is one matrix-vector product per layer. On the
  MuSiQue memory (28k vectors, 43 MB) that takes ~3 ms instead of ~15-20 ms for three HNSW searches
  on the server, and it is exact: the approximate index can miss a near neighbour, this cannot.
  Spaces with more than `snapshot_max_vectors` vectors are searched through the indexes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.changes import ChangeRepository, Changes
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
from memgraph_neo4j.retrieval.changes import ChangeFeed, Followed
from memgraph_neo4j.retrieval.layer_rows import CanonicalLayer, Layer, check_dimension, top_rows

__all__ = ["CanonicalLayer", "Layer", "LayerSearch", "LayerSnapshot", "top_rows"]  # top_rows: bm25_index

MAX_FETCH = 4096  # most vector hits asked for one layer (a layer whose allowed states are that rare gets fewer)


class LayerSnapshot:
    """The vector layers of one space: built from the exported rows, then updated in place by `apply`;
    an updated copy searches exactly as a fresh build of the same rows (see retrieval/layer_rows)."""

    def __init__(self, rows: Iterable[ExportRow], dimension: int) -> None:
        self.dimension = dimension
        self.facts, self.schemas, self.passages = Layer(dimension), Layer(dimension), Layer(dimension)
        self.apply(rows)

    @property
    def layers(self) -> dict[str, Layer]:
        """The layers by ExportRow.layer name."""
        return {"fact": self.facts, "schema": self.schemas, "passage": self.passages}

    def apply(self, rows: Iterable[ExportRow], removed: Iterable[tuple[str, str]] = ()) -> None:
        """Removes the (layer, id) pairs in `removed` (unknown ids are ignored), then upserts `rows` by
        (layer, id): a row given is present afterwards. Checked first, so a bad row changes nothing."""
        layers = self.layers
        rows, removed = list(rows), list(removed)
        by_layer: dict[str, list[ExportRow]] = {name: [] for name in layers}
        for row in rows:
            if row.layer not in layers:
                raise ValueError(f"no vector layer named {row.layer!r}; layers are {', '.join(layers)}")
            by_layer[row.layer].append(row)
        for name, _ in removed:
            if name not in layers:
                raise ValueError(f"no vector layer named {name!r}; layers are {', '.join(layers)}")
        check_dimension(rows, self.dimension)
        for name, id_ in removed:
            layers[name].remove([id_])
        for name, layer in layers.items():
            if by_layer[name]:
                layer.upsert(by_layer[name])

    def canonical(self) -> dict[str, CanonicalLayer]:
        """Each layer's content sorted by id: equal for two copies holding the same rows."""
        return {name: layer.canonical() for name, layer in self.layers.items()}

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


def apply_changes(snapshot: LayerSnapshot, changes: Changes) -> None:
    """A write's facts, schemas and passages as layer rows (those without a vector or an end leave, and so
    do the passages it deleted)."""
    rows: list[ExportRow] = []
    removed: list[tuple[str, str]] = [("passage", p) for p in changes.removed_passages]
    for f in changes.facts:
        if f.embedding is not None and f.head_id is not None and f.tail_id is not None:
            rows.append(ExportRow("fact", f.id, f.state, f.text, f.embedding, [f.head_id, f.tail_id, None]))
        else:
            removed.append(("fact", f.id))
    for s in changes.schemas:
        if s.embedding is not None:
            rows.append(ExportRow("schema", s.id, s.state, None, s.embedding, [s.head_type, s.relation, s.tail_type]))
        else:
            removed.append(("schema", s.id))
    for p in changes.passages:
        if p.embedding is not None:
            rows.append(ExportRow("passage", p.id, None, p.text, p.embedding, [p.title, None, None]))
        else:
            removed.append(("passage", p.id))
    snapshot.apply(rows, removed)


class LayerSearch:
    """The layers for one query, exact in process or from the indexes (see the module doc)."""

    def __init__(self, repository: LayerRepository, dimension: int, config: RetrievalConfig,
                 graph_prefix: str, counts: Callable[[int], SpaceCounts], feed: ChangeFeed | None = None) -> None:
        self.repository, self.dimension, self.config = repository, dimension, config
        self.graph_prefix = graph_prefix  # the memory-state read also lists these projections
        self.counts = counts  # the space's sizes at a memory version
        feed = feed or ChangeFeed(ChangeRepository(repository.store, repository.space), lambda: 0)
        self.copy: Followed[LayerSnapshot] = Followed(
            feed, lambda: LayerSnapshot(self.repository.export(), self.dimension), apply_changes,
            lambda v: self.counts(v).vectors <= self.config.snapshot_max_vectors)

    def snapshot(self, version: int) -> LayerSnapshot | None:
        """The space's vector layers at `version` or later (read once, then caught up from the writes,
        retrieval/changes.py), or None when the space holds more than `snapshot_max_vectors` vectors."""
        return self.copy.at(version)

    @property
    def exports(self) -> int:
        return self.copy.builds  # observable: tests assert one whole read, then catch-ups

    def search(self, vector: list[float], requests: Sequence[LayerRequest],
               state: MemoryState | None = None) -> tuple[MemoryState, LayerHits]:
        """`state`: the memory state the caller read already (the in-process search then reads nothing;
        a search through the indexes reads its own, with the hits)."""
        if self.config.layer_search != "local":
            return self._from_indexes(vector, requests)
        held, hits = self.copy.held, None
        if held is not None and held[1] is None:
            # too large for a copy at the last version seen: the index search reads the state itself
            state, hits = self._from_indexes(vector, requests)
            if state.version == held[0]:
                return state, hits
        elif state is None:
            state = self.repository.state(self.graph_prefix)
        with self.copy.hold():
            snapshot = self.snapshot(state.version)
            if snapshot is not None:
                return state, snapshot.search(vector, requests)
        if hits is not None:  # still too large after a write: the hits read with that state stand (not read twice)
            return state, hits
        return self._from_indexes(vector, requests)

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
