"""The PPR graph of one space held in process and kept up to date from the writes (the local engine's copy).

The graph is the projection's (cypher/retrieval/project_graph): undirected weighted edges from facts,
mentions, entity types and SIMILAR bridges. Here it is held by owner: each fact, passage and entity owns
the edges it brings (graph_facts, graph_passages, graph_entities), so a changed owner's old edges can be
taken out and its new ones put in. A write then costs the copy O(what it changed), not a new projection:
building and exporting the GDS projection took ~1.5 s of the 3.4-4.2 s a MuSiQue search paid after each
write.

The adjacency A is a compressed base (scipy CSR, built from every owner at the last compaction) plus a
small delta (the changed owners' new edges minus what the base holds for them). PageRank needs only
products Pᵀs = A (s / degree) (A is symmetric), so base @ x + delta @ x serves without rebuilding the
base. Once the delta holds more than COMPACT_FRACTION of the base's entries, the base is rebuilt in
memory from the owners (no database read). tests/integration/test_graph_copy.py holds the copy to the
GDS projection, edge for edge, and an updated copy to a fresh one.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from functools import cached_property

import numpy as np
from scipy import sparse

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.repository.changes import Changes
from memgraph_neo4j.repository.projections import CO_OCCURS, ProjectionSpec
from memgraph_neo4j.retrieval.ppr.packed import Edge, NodeRows, OwnedEdges

KINDS = ("entity", "type", "passage")
COMPACT_FRACTION = 0.05  # delta entries per base entry above which the base is rebuilt (~5 ms at MuSiQue)
COMPACT_MIN = 2_048  # ... and never for fewer than these (a one-message write adds a few dozen)

ANCESTORS = 64  # uids of earlier contents remembered: a push form of one of them is corrected (ppr/push.py)
# rows of deleted nodes stay (rows are never renumbered: a push form is corrected row by row); past this share
# of the rows, and at least DEAD_MIN of them, the copy asks to be read again whole, which holds none
DEAD_FRACTION = 0.25
DEAD_MIN = 1_000


class GrowingNodes:
    """The graph's nodes: kind, our id and name per row, rows appended as nodes appear (the interface of
    ppr/local.py's NodeTable that ranking uses)."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.names: list[str | None] = []
        self._kinds = np.zeros(1024, dtype=np.int8)
        self._row = NodeRows()  # a dict, or sorted arrays after a load (ppr/packed.py)
        self._of_kind: dict[str, np.ndarray] = {}
        self.dead = 0  # rows of deleted nodes

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def kinds(self) -> np.ndarray:
        return self._kinds[: len(self.ids)]

    def row(self, kind: str, node_id: str) -> int | None:
        return self._row.get((kind, node_id))

    def ensure(self, kind: str, node_id: str, name: str | None = None, named: bool = False) -> int:
        """The node's row, added if new; `named`: set its name (a changed entity or passage)."""
        row = self._row.get((kind, node_id))
        if row is None:
            row = self._row[(kind, node_id)] = len(self.ids)
            if row == len(self._kinds):
                self._kinds = np.concatenate([self._kinds, np.zeros(len(self._kinds), dtype=np.int8)])
            self._kinds[row] = KINDS.index(kind)
            self.ids.append(node_id)
            self.names.append(name)
            self._of_kind.clear()
        elif named:
            self.names[row] = name
        return row

    def remove(self, kind: str, node_id: str) -> None:
        """The node is gone (deleted): its row stays, without name or edges, but no id finds it (a seed
        of it carries no mass, as an unknown id's), and a node created again with its id gets a new row."""
        row = self._row.pop((kind, node_id), None)
        if row is not None:
            self.names[row] = None
            self.dead += 1

    def rows_of_kind(self, kind: str) -> np.ndarray:
        if kind not in self._of_kind:
            self._of_kind[kind] = np.flatnonzero(self.kinds == KINDS.index(kind))
        return self._of_kind[kind]


def symmetric(edges: np.ndarray, weights: np.ndarray, n: int) -> sparse.csr_matrix:
    """A from undirected edges (k, 2) rows: each edge in both directions, as GDS holds an undirected
    relationship; parallel edges add up (the degree sums them, as GDS's does)."""
    rows = np.concatenate([edges[:, 0], edges[:, 1]])
    cols = np.concatenate([edges[:, 1], edges[:, 0]])
    return sparse.csr_matrix((np.concatenate([weights, weights]), (rows, cols)), shape=(n, n))


def symmetric_rows(edges: np.ndarray, weights: np.ndarray, n: int) -> tuple[np.ndarray, sparse.csr_matrix]:
    """symmetric()'s nonzero rows only: (rows, sorted; their CSR, len(rows) x n). A write's delta touches a
    few hundred rows of 1.1M at 100k passages, and an n-row CSR cost 5-9 ms per write in its row offsets."""
    a_rows = np.concatenate([edges[:, 0], edges[:, 1]])
    cols = np.concatenate([edges[:, 1], edges[:, 0]])
    rows, local = np.unique(a_rows, return_inverse=True)
    matrix = sparse.csr_matrix((np.concatenate([weights, weights]), (local, cols)), shape=(len(rows), n))
    matrix.eliminate_zeros()
    return rows.astype(np.int64), matrix


class Transition:
    """Pᵀ as an operator: `Pᵀ @ s` = A (s / degree), degree the weighted degree (0: the node sends nothing).
    A = base (n0 x n0) + delta, the delta held as its nonzero rows `delta_rows` (delta: len x n)."""

    def __init__(self, base: sparse.csr_matrix, delta_rows: np.ndarray, delta: sparse.csr_matrix,
                 degree: np.ndarray) -> None:
        self.base, self.delta_rows, self.delta, self.degree = base, delta_rows, delta, degree
        self.shape = (len(degree), len(degree))
        self.nnz = base.nnz + delta.nnz

    @cached_property
    def inverse(self) -> np.ndarray:
        """1 / degree (0 where the degree is): only the iterating engines need it, not the push form's
        correction after a write (an n-long pass, 3 ms at 1.1M nodes)."""
        return np.divide(1.0, self.degree, out=np.zeros_like(self.degree), where=self.degree > 0)

    def __matmul__(self, s: np.ndarray) -> np.ndarray:
        x = s * (self.inverse if s.ndim == 1 else self.inverse[:, None])
        n0 = self.base.shape[0]
        out = np.zeros_like(x)
        out[:n0] = self.base @ x[:n0]
        if self.delta.nnz:
            out[self.delta_rows] += self.delta @ x
        return out

    def delta_of(self, rows: np.ndarray) -> sparse.csr_matrix:
        """The delta's rows `rows` (len(rows) x n; a row it does not hold is empty)."""
        if not len(self.delta_rows):
            return sparse.csr_matrix((len(rows), self.shape[1]))
        at = np.searchsorted(self.delta_rows, rows)
        held = (at < len(self.delta_rows)) & (self.delta_rows[np.minimum(at, len(self.delta_rows) - 1)] == rows)
        if not held.any():
            return sparse.csr_matrix((len(rows), self.shape[1]))
        placed = sparse.csr_matrix((np.ones(int(held.sum())), (np.flatnonzero(held), at[held])),
                                   shape=(len(rows), len(self.delta_rows)))
        return (placed @ self.delta).tocsr()

    def explicit(self) -> sparse.csr_matrix:
        """Pᵀ as one CSR matrix (ppr/push.py's form), entry (i, j) = A[i, j] / degree[j]."""
        n, n0 = self.shape[0], self.base.shape[0]
        base = sparse.csr_matrix((self.base.data, self.base.indices, self.base.indptr), shape=(n0, n))
        a = sparse.vstack([base, sparse.csr_matrix((n - n0, n))]).tocsr() + self.delta_of(np.arange(n))
        return sparse.csr_matrix(a.multiply(self.inverse[None, :]))


class GraphCopy:
    """The PPR graph of a space at `version`, by owner (the module doc)."""

    def __init__(self, spec: ProjectionSpec) -> None:
        self.spec = spec
        self.version = -1
        # this content's name, new with every apply: what a form derived from the graph (ppr/push.py) was
        # built from, in this process or in the one that kept both on disk (retrieval/persisted.py)
        self.uid = uuid.uuid4().hex
        self.ancestors: list[str] = []  # the uids before, last ANCESTORS: rows only got appended since them
        self.touched: list[np.ndarray] = []  # per ancestor: the rows of A the apply after it changed
        self.nodes = GrowingNodes()
        self._owned = OwnedEdges()  # every owner's edges now (ppr/packed.py: arrays in a file)
        # each apply's change to A not yet merged into `_delta`, (edges (k, 2), weights): the owners' new
        # edges, and their old ones negated; `_delta` sums those merged since the base was built (rows, CSR)
        self._changes: list[tuple[np.ndarray, np.ndarray]] = []
        # entries of every change since the base was built, merged or not, counted as applied (an edge taken
        # out and put back counts twice): the bound that decides compaction, not the delta's size
        self._changed_entries = 0
        self._delta: tuple[np.ndarray, sparse.csr_matrix] = (np.zeros(0, dtype=np.int64), sparse.csr_matrix((0, 0)))
        self._stale = True  # the base lacks owners (the first apply, a whole read): compact before use
        self._base = sparse.csr_matrix((0, 0))
        self._base_degree = np.zeros(0)
        self._transition: Transition | None = None
        # the lazy matrix is merged from `_changes` by whichever thread asks first (a search's reader thread,
        # context.prepare_ahead, or the search itself): two merging at once merged a change twice or not at
        # all (test_read_after_write_property ranked on a wrong graph), so the copy guards its own state
        self._lock = threading.RLock()

    def __getstate__(self) -> dict:
        with self._lock:
            return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    # ----- what each owner brings (cypher/retrieval/project_graph's weights) -----------------------------
    def _fact_weight(self, state: str | None, relation: str | None) -> float | None:
        spec, pending = self.spec, str(FactState.PENDING)
        if state not in spec.fact_states or (state == pending and spec.pending_weight <= 0):
            return None
        weight = spec.pending_weight if state == pending else 1.0
        return weight * (spec.co_occurrence_weight if relation == CO_OCCURS else 1.0)

    def apply(self, changes: Changes) -> bool:
        """Remove the owners and nodes deleted, upsert those in `changes`; the copy then holds
        `changes.version`. A deleted node's edges are all its own (a retraction deletes an entity no fact
        or passage names, and stamps the entities bridged to it). False: deleted nodes' rows have grown past
        DEAD_FRACTION, read the copy again whole (retrieval/changes.Followed does)."""
        with self._lock:
            return self._apply(changes)

    def _apply(self, changes: Changes) -> bool:
        nodes = self.nodes
        owned: dict[tuple[str, str], list[Edge]] = {}
        for kind, removed in (("passage", changes.removed_passages), ("entity", changes.removed_entities)):
            for node_id in removed:
                owned[(kind, node_id)] = []
                nodes.remove(kind, node_id)
        for type_id in changes.types:
            nodes.ensure("type", type_id, type_id)
        for e in changes.entities:
            nodes.ensure("entity", e.id, e.name, named=True)
        for p in changes.passages:
            nodes.ensure("passage", p.id, p.title, named=True)
        for f in changes.facts:
            weight = self._fact_weight(f.state, f.relation)
            ok = weight is not None and f.head_id is not None and f.tail_id is not None
            owned[("fact", f.id)] = ([(nodes.ensure("entity", f.head_id), nodes.ensure("entity", f.tail_id), weight)]
                                     if ok else [])
        for p in changes.passages:
            row = nodes.row("passage", p.id)
            owned[("passage", p.id)] = [(row, nodes.ensure("entity", e), 1.0) for e in p.mentions]
        for e in changes.entities:
            row = nodes.row("entity", e.id)
            edges = ([(row, nodes.ensure("type", t, t), self.spec.type_weight) for t in e.types]
                     if self.spec.type_weight > 0 else [])
            owned[("entity", e.id)] = edges + [(row, nodes.ensure("entity", b), w) for b, w in e.similar]
        touched: set[int] = set()  # rows of A this apply changes: both ends of every changed owner's edges
        first = self._owned.empty()  # the first apply (a whole read) has no earlier content to tell apart from
        change: list[Edge] = []
        for key, edges in owned.items():
            if not first:
                before = self._owned.get(key, ())
                touched.update(r for u, v, _ in (*before, *edges) for r in (u, v))
                change.extend((u, v, -w) for u, v, w in before)
                change.extend(edges)
            self._owned[key] = edges
        if first:
            self._stale = True
        elif change:
            self._changes.append((np.asarray([(u, v) for u, v, _ in change], dtype=np.int64).reshape(-1, 2),
                                  np.asarray([w for _, _, w in change], dtype=np.float64)))
            self._changed_entries += len(change)
        self.version = max(self.version, changes.version)
        self.ancestors = [*self.ancestors[-(ANCESTORS - 1):], self.uid]
        self.touched = [*self.touched[-(ANCESTORS - 1):], np.fromiter(touched, dtype=np.int64, count=len(touched))]
        self.uid = uuid.uuid4().hex
        self._transition = None
        return not (nodes.dead >= DEAD_MIN and nodes.dead > DEAD_FRACTION * len(nodes))

    # ----- the matrix ---------------------------------------------------------------------------------
    def _merged_delta(self, n: int) -> tuple[np.ndarray, sparse.csr_matrix]:
        """The delta (A now minus the base), as its rows and their CSR (len x n): the one summed so far,
        widened to n, plus the applies since. Each apply is merged once (O(the delta) in C): summing the
        changed owners' edges again per write in Python grew with the writes since the last compaction
        (up to COMPACT_FRACTION of A: 61k edges at x 10, ~40 ms)."""
        rows, held = self._delta
        if held.shape[1] != n:
            held = sparse.csr_matrix((held.data, held.indices, held.indptr), shape=(len(rows), n))
        fresh, self._changes = self._changes, []  # merged once, then let go
        if fresh:
            edges = np.concatenate([e for e, _ in fresh])
            new_rows, new = symmetric_rows(edges, np.concatenate([w for _, w in fresh]), n)
            union = np.union1d(rows, new_rows)
            old, add = held.tocoo(), new.tocoo()
            held = sparse.csr_matrix((np.concatenate([old.data, add.data]),
                                      (np.concatenate([np.searchsorted(union, rows)[old.row],
                                                       np.searchsorted(union, new_rows)[add.row]]),
                                       np.concatenate([old.col, add.col]))), shape=(len(union), n))
            held.eliminate_zeros()  # an edge taken out and put back: no entry
            rows = union.astype(np.int64)
        self._delta = (rows, held)
        return self._delta

    def _compact(self) -> None:
        self._owned.pack()  # deleted owners go
        u, v, weights = self._owned.arrays()
        n = len(self.nodes)
        self._base = symmetric(np.stack([u, v], axis=1), weights, n)
        self._base_degree = np.asarray(self._base.sum(axis=1)).ravel()
        self._changes, self._changed_entries, self._stale = [], 0, False
        self._delta = (np.zeros(0, dtype=np.int64), sparse.csr_matrix((0, n)))

    @property
    def transition(self) -> Transition:
        """Pᵀ now (base + delta); the base is rebuilt first when the delta outgrew it."""
        with self._lock:
            if self._transition is None:
                self._transition = self._merged_transition()
            return self._transition

    def _merged_transition(self) -> Transition:
        if self._stale or self._changed_entries > max(COMPACT_MIN, COMPACT_FRACTION * self._base.nnz):
            self._compact()
        n, n0 = len(self.nodes), self._base.shape[0]
        delta_rows, d = self._merged_delta(n)
        degree = np.zeros(n)
        degree[:n0] = self._base_degree
        degree[delta_rows] += np.asarray(d.sum(axis=1)).ravel()
        return Transition(self._base, delta_rows, d, degree)

    def changed_since(self, uid: str) -> np.ndarray | None:
        """The rows of A that changed since the content `uid`, sorted; None: not an ancestor held."""
        with self._lock:
            if uid == self.uid:
                return np.zeros(0, dtype=np.int64)
            if uid not in self.ancestors:
                return None
            return np.unique(np.concatenate(self.touched[self.ancestors.index(uid):]))

    def rows(self, rows: np.ndarray) -> sparse.csr_matrix:
        """A's rows `rows` now, (len(rows), n): the base's rows plus the delta's (no compaction)."""
        with self._lock:
            return self._rows(rows)

    def _rows(self, rows: np.ndarray) -> sparse.csr_matrix:
        t = self.transition
        n, n0 = len(self.nodes), t.base.shape[0]
        base = sparse.csr_matrix((t.base.data, t.base.indices, t.base.indptr), shape=(n0, n))
        inside = rows[rows < n0]
        out = t.delta_of(rows)
        out.sort_indices()  # the delta's few entries: then the sum with the base's sorted rows comes out sorted
        # (sorting the Type rows' 100k entries after it cost the push correction 6.7 ms a write at x 10)
        if len(inside):
            out = out + sparse.vstack([base[inside], sparse.csr_matrix((len(rows) - len(inside), n))]).tocsr()
        return out.tocsr()

    def compacted(self) -> Transition:
        """Pᵀ with an empty delta (the push form and comparisons want one matrix)."""
        with self._lock:
            return self._compacted()

    def _compacted(self) -> Transition:
        if self._stale or self._changed_entries or self._base.shape[0] != len(self.nodes):
            self._compact()
            self._transition = None
        return self.transition

    def edges(self) -> dict[tuple[tuple[str, str], tuple[str, str]], float]:
        """Summed weight per ordered pair of (kind, id) nodes, both directions: what the tests compare."""
        a = self.compacted().base.tocoo()
        kinds, ids = self.nodes.kinds, self.nodes.ids
        out: dict[tuple[tuple[str, str], tuple[str, str]], float] = {}
        for i, j, w in zip(a.row, a.col, a.data, strict=True):
            key = ((KINDS[kinds[i]], ids[i]), (KINDS[kinds[j]], ids[j]))
            out[key] = out.get(key, 0.0) + float(w)
        return out


def node_keys(nodes: GrowingNodes, rows: Iterable[int]) -> list[tuple[str, str]]:
    return [(KINDS[nodes.kinds[r]], nodes.ids[r]) for r in rows]
