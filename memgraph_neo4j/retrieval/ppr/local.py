"""Personalised PageRank in process, on a copy of the GDS projection (the default engine).

GDS is the reference engine. A `gds.pageRank.stream` call costs about 20 ms before its first
iteration and ~3 ms per iteration on the MuSiQue projection (20k nodes, 129k relationships): alone
more than a 30 ms query budget on 2 cores. The "local" engine (`LocalEngine` below) exports that
projection once per memory version (relationships with their weights, as GDS holds them), then runs
the same iteration with scipy, s0 = (1-d)·w, s <- (1-d)·w + d·Pᵀs, P the weighted transition matrix
with each row normalised by the node's weighted degree, stopping after max_iterations or once no score
moved by more than the tolerance. Projections of `push_min_relationships` entries or more reach the
same fixed point by forward push instead (ppr/push.py: 35 ms instead of ~400 at 6.5M entries). The
tests hold both to GDS.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.changes import ChangeRepository
from memgraph_neo4j.repository.projections import NodeColumns, ProjectionRepository, projection_spec
from memgraph_neo4j.retrieval.base import Hit
from memgraph_neo4j.retrieval.changes import ChangeFeed, Followed
from memgraph_neo4j.retrieval.ppr import Ranking, Seeds, StoreProjections
from memgraph_neo4j.retrieval.ppr.graph_copy import GraphCopy

if TYPE_CHECKING:  # push.py imports numba, and this module: only its type here
    from memgraph_neo4j.retrieval.ppr.push import PushGraph

KINDS = ("entity", "type", "passage")


class NodeTable:
    """The nodes a projection can hold: GDS node id (the Neo4j internal id), kind, our id, name."""

    def __init__(self, keys: list[int], kinds: list[str], ids: list[str], names: list[str | None]) -> None:
        if not len(keys) == len(kinds) == len(ids) == len(names):
            raise ValueError("node table columns differ in length")
        self.keys = np.asarray(keys, dtype=np.int64)
        self.kinds = np.array([KINDS.index(k) for k in kinds], dtype=np.int8)
        self.ids, self.names = list(ids), list(names)
        self._row = {(kind, node_id): i for i, (kind, node_id) in enumerate(zip(kinds, ids, strict=True))}
        self._key_order = np.argsort(self.keys)
        self._of_kind: dict[str, np.ndarray] = {}

    @classmethod
    def from_columns(cls, columns: NodeColumns) -> NodeTable:
        return cls(columns.keys, columns.kinds, columns.ids, columns.names)

    def __len__(self) -> int:
        return len(self.ids)

    def rows_of_kind(self, kind: str) -> np.ndarray:
        """Rows of one kind, in row order (kept: comparing every kind cost ~1 ms per call at 1M rows)."""
        if kind not in self._of_kind:
            self._of_kind[kind] = np.flatnonzero(self.kinds == KINDS.index(kind))
        return self._of_kind[kind]

    def row(self, kind: str, node_id: str) -> int | None:
        return self._row.get((kind, node_id))

    def rows_of_keys(self, keys: np.ndarray) -> np.ndarray:
        """Rows of GDS node ids, -1 where a key is not in the table."""
        keys = np.asarray(keys, dtype=np.int64)
        if not len(self.keys):
            return np.full(len(keys), -1)
        sorted_keys = self.keys[self._key_order]
        at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
        return np.where(sorted_keys[at] == keys, self._key_order[at], -1)


@dataclass(frozen=True)
class LocalGraph:
    """A projection in CSR form: the transposed transition matrix and the nodes its rows stand for."""

    transition_t: sparse.csr_matrix  # (n, n), column j holds node j's out-edges / its weighted degree
    nodes: NodeTable
    degree: np.ndarray  # weighted degree per row (what ppr/push.py's error bound scales by)

    @property
    def node_count(self) -> int:
        return len(self.nodes)


def build_local_graph(nodes: NodeTable, sources: list[int], targets: list[int], weights: list[float]) -> LocalGraph:
    """From the node table and the relationship stream of the projection (GDS node ids).

    The stream lists each undirected relationship in both directions, as GDS traverses it.
    Relationships whose ends are not among the nodes are an error: the export is inconsistent.
    """
    ends = np.concatenate([np.asarray(sources, dtype=np.int64), np.asarray(targets, dtype=np.int64)])
    found = nodes.rows_of_keys(ends)
    if (found < 0).any():
        raise ValueError(f"projection relationship touches node {ends[found < 0][0]} that is not in the node list")
    rows, cols = found[: len(sources)], found[len(sources):]
    w = np.asarray(weights, dtype=np.float64)
    n = len(nodes)
    degree = np.bincount(rows, weights=w, minlength=n)
    norm = np.divide(w, degree[rows], out=np.zeros_like(w), where=degree[rows] > 0)
    # entry (target, source): a matvec with this matrix pushes each source's mass to its targets
    return LocalGraph(sparse.csr_matrix((norm, (cols, rows)), shape=(n, n)), nodes, degree)


def personalized_pagerank(
    transition_t: sparse.csr_matrix, teleport: np.ndarray, damping: float, max_iterations: int, tolerance: float,
) -> np.ndarray:
    """GDS PageRank with source nodes: start at (1-d)·w, iterate, stop on max_iterations or tolerance.
    `teleport` may be (n, k): k rankings at once (ppr/push.py computes its hubs' vectors so)."""
    base = (1.0 - damping) * teleport
    scores = base.copy()
    for _ in range(max_iterations):
        updated = base + damping * (transition_t @ scores)
        converged = np.max(np.abs(updated - scores), initial=0.0) < tolerance
        scores = updated
        if converged:
            break
    return scores


def gds_pagerank(
    transition_t: sparse.csr_matrix, teleport: np.ndarray, damping: float, max_iterations: int, tolerance: float,
) -> np.ndarray:
    """What `gds.pageRank.stream` with weighted source nodes computes (GDS's PageRankComputation on Pregel):
    superstep 0 sets s = (1-d)·w and every node sends s / degree along its edges; each later superstep adds
    δ = d·(messages) to the node's score, and only a node whose δ > tolerance sends δ / degree on. The
    run ends after `max_iterations` supersteps (what the last one sends is never received) or when no
    node sends. The per-node cut-off drops mass a plain iteration keeps (0.2 % of the passages' PageRank
    mass on MuSiQue): the fixed-point iteration above came within 1e-6 of GDS per node, but not on the
    summed mass that memgraphrag's fusion divides by, which moved its scores by up to 2.5e-3."""
    scores = (1.0 - damping) * teleport
    sent = scores
    for _ in range(1, max_iterations):
        delta = damping * (transition_t @ sent)
        scores = scores + delta
        active = delta > tolerance
        if not active.any():
            break
        sent = np.where(active, delta, 0.0)
    return scores


SAMPLE_STRIDE = 64  # top_by_kind's cut-off comes from every 64th row of the kind


def top_by_kind(nodes: NodeTable, scores: np.ndarray, kind: str, k: int) -> list[tuple[int, float]]:
    """The k highest-scoring rows of one kind with a score > 0, best first (ties by row).

    Exact, without sorting the kind's rows: the k-th best of every 64th row is at most the k-th best of
    all, so only rows scoring at least that can be among the k. On the 100k space (1M entity rows) the
    plain mask-and-partition took 26-32 ms a query, this ~3 ms."""
    of_kind = nodes.rows_of_kind(kind)
    if k <= 0 or not len(of_kind):
        return []
    sample = scores[of_kind[::SAMPLE_STRIDE]]
    cut = float(np.partition(sample, len(sample) - k)[len(sample) - k]) if len(sample) > k else 0.0
    if cut > 0:
        rows = np.flatnonzero(scores >= cut)
        rows = rows[nodes.kinds[rows] == KINDS.index(kind)]
    else:  # fewer than k sampled rows score > 0: every scored row of the kind is a candidate
        rows = of_kind[scores[of_kind] > 0]
    top = rows[np.lexsort((rows, -scores[rows]))]
    if len(top) > k:  # keep the rows tied with the k-th: ties go to the lower id, whatever the row order
        top = top[scores[top] >= scores[top[k - 1]]]
    ids = nodes.ids
    return [(int(r), float(scores[r])) for r in sorted(top.tolist(), key=lambda r: (-scores[r], ids[r]))[:k]]


def ranked(nodes: NodeTable, scores: np.ndarray, top_k: int, top_m: int) -> Ranking:
    """Top-k passages and top-m entities as the engines return them, with the passages' total score."""
    mass = float(scores[nodes.rows_of_kind("passage")].sum())
    return Ranking({kind: [Hit(id=nodes.ids[row], name=nodes.names[row], score=score)
                           for row, score in top_by_kind(nodes, scores, kind, k)]
                    for kind, k in (("passage", top_k), ("entity", top_m))}, mass)


def reported(copy) -> np.ndarray:
    """Per node of the copy: a ranking reports its score (`ranked`: passages and entities, not types)."""
    return copy.nodes.kinds != KINDS.index("type")


class LocalEngine(StoreProjections):
    """PageRank in process on the space's graph copy (ppr/graph_copy.py), read whole once and then kept up
    to date from the writes (retrieval/changes.py): no GDS projection is built or exported."""

    needs_projection = False

    def __init__(self, repository: ProjectionRepository, config: RetrievalConfig,
                 feed: ChangeFeed | None = None) -> None:
        super().__init__(repository, config)
        self.feed = feed or ChangeFeed(ChangeRepository(repository.store, repository.space), lambda: 0)
        self.spec = projection_spec(config)
        self.copy: Followed[GraphCopy] = Followed(self.feed, self._read_graph, GraphCopy.apply)
        self._push: tuple[str, PushGraph] | None = None  # the push form of the copy (by its uid), on large graphs
        self._lock = threading.RLock()  # an apply must not run under a ranking
        self.push_builds = self.push_updates = 0  # observable: tests assert the push form is corrected
        self._push_kept: str | None = None  # the uid of the push form in the file (loaded or saved)

    @property
    def exports(self) -> int:
        return self.copy.builds  # observable: tests assert one whole read, then catch-ups

    def _read_graph(self) -> GraphCopy:
        self._push = None  # the old copy's push form can go before the new copy is read
        copy = GraphCopy(self.spec)
        copy.apply(self.feed.repository.graph())
        copy.compacted()  # the matrix every ranking needs (and a kept file holds)
        return copy

    def graph_copy(self, version: int) -> GraphCopy:
        """The copy at `version` or later: caught up from the changes, or read whole (retrieval/changes.py)."""
        with self._lock:
            return self.copy.at(version)

    def uses_push(self, copy: GraphCopy) -> bool:
        return copy.transition.nnz >= self.config.push_min_relationships

    def push_graph(self, copy: GraphCopy) -> PushGraph:
        """The push form of the copy (ppr/push.py: P, degrees, the hubs' vectors). After a change the form
        of an earlier content (this process's, or the one kept on disk beside the copy, named by that
        content's uid) is corrected (update_push_graph: the hubs' vectors cost 8.6 s to build at 100k
        passages); without one it is built."""
        with self._lock:
            if self._push is not None and self._push[0] == copy.uid:
                return self._push[1]
            files, held = self.copy.files, self.copy.held
            if self._push is None and files is not None and held is not None:
                kept = files.load("push", held[0])
                self._push = kept.payload if kept is not None else None
                self._push_kept = self._push[0] if self._push is not None else None
                if self._push is not None and self._push[0] == copy.uid:
                    return self._push[1]
            from memgraph_neo4j.retrieval.ppr.push import build_push_graph  # numba: here only
            from memgraph_neo4j.retrieval.ppr.push_update import update_push_graph

            began = time.perf_counter()
            config, form, corrected = self.config, None, False
            rows = copy.changed_since(self._push[0]) if self._push is not None else None
            if rows is not None:  # an earlier content's form: corrected, rows of A only (no compaction)
                earlier, self._push = self._push[1], None  # used up: its hub blocks are corrected in place
                form = update_push_graph(earlier, rows, copy.rows(rows), copy.transition.degree,
                                         config.damping, config.push_epsilon, reported(copy))
                self.push_updates += (corrected := form is not None)
            if form is None:
                transition = copy.compacted()
                form = build_push_graph(transition.explicit(), transition.degree, config.damping, config.tolerance,
                                        reported=reported(copy), epsilon=config.push_epsilon)
                self.push_builds += 1
            self._push = (copy.uid, form)
            epoch = self.copy.kept_epoch
            if (files is not None and epoch and held and not corrected
                    and time.perf_counter() - began >= files.min_build_s):  # a correction: kept at close
                if files.save("push", held[0], epoch, self._push):
                    self._push_kept = copy.uid
            return form

    def persist(self) -> None:
        """At close: keep the push form of the graph copy held, when the file holds an earlier one.
        Corrections (~30 ms at x 10) are not written as they come (the form is 2 x hubs x n float64: 50 MB
        at x 10); without this, a process whose graph copy is more than ANCESTORS contents past the file's
        form would build it again (8.6 s at 100k)."""
        with self._lock:
            files, held, push = self.copy.files, self.copy.held, self._push
            if (files is None or held is None or held[1] is None or push is None or self._push_kept is None
                    or push[0] == self._push_kept or push[0] != held[1].uid or not self.copy.kept_epoch):
                return
            if files.save("push", held[0], self.copy.kept_epoch, push):
                self._push_kept = push[0]

    def prepare(self, graph: str, version: int | None = None) -> None:
        # runs on a reader thread (context.prepare_ahead) beside the search's ranking: the copy guards its
        # lazy matrix itself (GraphCopy._lock), the engine's lock keeps the copy and its push form in step
        with self._lock:
            copy = self.graph_copy(self._version(graph) if version is None else version)
            if self.uses_push(copy):
                self.push_graph(copy)

    def _version(self, graph: str) -> int:
        """The memory version in a projection's name (retrieval/projection.py: mg_<space>_v<version>_p...)."""
        return int(graph.rsplit("_v", 1)[1].split("_p", 1)[0])

    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int, mass: bool = False) -> Ranking:
        config = self.config
        with self._lock:
            copy = self.graph_copy(self._version(graph))
            teleport = np.zeros(len(copy.nodes))
            for kind, kind_seeds in seeds.by_kind():
                for node_id, weight in kind_seeds:
                    row = copy.nodes.row(kind, node_id)
                    if row is not None:  # only seeds of projected kinds reach here; unknown ids carry no mass
                        teleport[row] += weight
            if self.uses_push(copy):
                from memgraph_neo4j.retrieval.ppr.push import push_pagerank

                scores = push_pagerank(self.push_graph(copy), teleport, config.damping, config.push_epsilon)
            else:
                scores = gds_pagerank(copy.transition, teleport, config.damping, config.iterations,
                                      config.tolerance)
            return ranked(copy.nodes, scores, top_k, top_m)
