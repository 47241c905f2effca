"""Personalised PageRank by forward push on large projections, with the hubs' own PageRank held exactly.

The local engine's power iteration (ppr/local.py) multiplies the whole transition matrix 20 times. On
the 100k-passage space (1.11M nodes, 6.48M relationship entries) one product costs ~20 ms, the query
~400 ms. The seeds are a few dozen nodes, and with restart 0.5 half of what reaches a node stops there.

Forward push (Andersen, Chung & Lang 2006) keeps a score and a residual per node, starting with the
residual at the seed weights. Pushing a node moves (1-d) of its residual into its score and hands d of
it to its out-neighbours along P; nodes are pushed first in, first out while their residual exceeds
epsilon·mass·degree (mass = the seeds' total weight). On an undirected graph (the projection holds each
relationship both ways with one weight) the result is below the fixed point by at most
epsilon·mass·degree(v) at each node v: with epsilon 1e-8 a passage of 50 mentions is within 5e-7·mass,
as close as the 20-step iteration comes (it stops up to 0.5^21·mass short).

Hubs spoil that: the 15 Type nodes of the 100k space hold 1.01M of the entries, and each push of one
touches up to 264k entities. So hubs absorb: what reaches hub h stays in its residual r_h, and the walk
from there is added as r_h·G_h, G_h the hub's own personalised PageRank computed once per projection
(the walk's first arrival at h decomposes it exactly). Measured on the 100k space: a numpy push
without this read 7.9M-60M entries (176-882 ms); compiled, with the hubs absorbing, ~35 ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy import sparse

from memgraph_neo4j.retrieval.ppr.local import personalized_pagerank

__all__ = ["PushGraph", "build_push_graph", "push_pagerank", "update_push_graph"]

MAX_HUBS = 64  # hub vectors held: 64 x n float64, and their residual (~1.1 GB at 1.1M nodes); 100k needs 15
OWED_BLOCK = 1 << 16  # nodes per block of hub_rows_owed's product: 15 hubs x 65,536 x 8 B = 7.9 MB


@dataclass(frozen=True)
class PushGraph:
    transition: sparse.csr_matrix  # P: row u holds u's out-edges divided by its weighted degree
    degree: np.ndarray  # weighted degree per node (float64)
    hubs: np.ndarray  # rows of the hub nodes
    absorbing: np.ndarray  # bool per node: a hub
    # (hubs, n) float64, one hub per row (contiguous: a correction pushes each in place): G_h, each hub's
    # personalised PageRank with its whole weight 1
    hub_scores: np.ndarray
    # (hubs, n) float64: what G_h still lacks, as the push kernel's residual: G_h exactly is
    # G_h + (1-d)·(I - d·Pᵀ)⁻¹·residual; update_push_graph corrects G_h from it after a change
    residual: np.ndarray | None = None
    # (hubs, hubs): what the residual still adds to G_h at the hub rows, exactly (hub_rows_owed): there the
    # residual left beside a hub of degree D adds up to epsilon·D, which the push does not chase
    hub_owed: np.ndarray | None = None


def hub_rows(transition: sparse.csr_matrix) -> np.ndarray:
    """Nodes with more than sqrt(entries) out-entries, most first, at most MAX_HUBS. Pushing one costs
    its degree every time it fills up; there can be at most sqrt(entries) of them, so their exact vectors
    cost a bounded number of columns (the 100k space: 15 Type nodes, each over 15k entries; the largest
    entity has 1,064)."""
    counts = np.diff(transition.indptr)
    rows = np.flatnonzero(counts > math.sqrt(max(transition.nnz, 1)))
    return rows[np.argsort(-counts[rows], kind="stable")][:MAX_HUBS]


def _forward(transition_t: sparse.csr_matrix) -> sparse.csr_matrix:
    """P from Pᵀ, in the kernels' layout (sorted, int64 offsets: once here, not per query)."""
    transition = transition_t.T.tocsr()
    transition.sort_indices()
    transition.indptr = transition.indptr.astype(np.int64)
    return transition


def build_push_graph(transition_t: sparse.csr_matrix, degree: np.ndarray, damping: float,
                     tolerance: float, max_iterations: int = 100, reported: np.ndarray | None = None) -> PushGraph:
    """From the local engine's Pᵀ; the hub vectors by the same iteration as the engine's, run to
    `tolerance` (a block of columns at once: 8.6 s for the 15 hubs of the 100k space). `reported`: the
    nodes whose scores a ranking reports (hub_rows_owed; None: all)."""
    transition = _forward(transition_t)
    n = transition.shape[0]
    hubs = hub_rows(transition)
    absorbing = np.zeros(n, dtype=np.bool_)
    absorbing[hubs] = True
    seeds = np.zeros((n, len(hubs)))
    seeds[hubs, np.arange(len(hubs))] = 1.0  # one column per hub: the engine's iteration, all at once
    scores = personalized_pagerank(transition_t, seeds, damping, max_iterations, tolerance)
    residual = ((1.0 - damping) * seeds + damping * (transition_t @ scores) - scores) / (1.0 - damping)
    degree = np.asarray(degree, dtype=np.float64)
    # in buffers with room to grow: the corrections widen them in place
    scores, residual = grown(np.ascontiguousarray(scores.T), n), grown(np.ascontiguousarray(residual.T), n)
    return PushGraph(transition, degree, hubs, absorbing, scores, residual,
                     hub_rows_owed(scores, residual, degree, hubs, reported))


def hub_rows_owed(scores: np.ndarray, residual: np.ndarray, degree: np.ndarray, hubs: np.ndarray,
                  reported: np.ndarray | None = None) -> np.ndarray:
    """What the residual adds to each hub vector at the hub rows: (1-d)(I - d·Pᵀ)⁻¹·r at hub k is
    Σ_v r_v·π_v(k), and on an undirected graph π_v(k) = π_k(v)·deg(k)/deg(v), π_k being hub k's own
    vector (G_k, held): one (hubs x n)·(n x hubs) product instead of chasing the residual into the hubs.
    Only for the hubs whose score is `reported` (bool per node; None: all): a ranking reports passages
    and entities, and the 15 hubs of the 100k space are Type nodes, so there the product is skipped
    (52-77 ms of a write's correction). In blocks of OWED_BLOCK nodes: the product over the whole width
    wrote a (hubs x n) temporary, 133 MB at 100k passages, fresh memory each time."""
    owed = np.zeros((len(hubs), len(hubs)))
    rows = np.arange(len(hubs)) if reported is None else np.flatnonzero(reported[hubs])
    if not len(rows):
        return owed
    part_owed = owed[rows]
    for start in range(0, len(degree), OWED_BLOCK):
        part = degree[start : start + OWED_BLOCK]
        inverse = np.divide(1.0, part, out=np.zeros(len(part)), where=part > 0)
        part_owed += (scores[rows, start : start + OWED_BLOCK] * inverse) @ residual[:, start : start + OWED_BLOCK].T
    owed[rows] = degree[hubs[rows]][:, None] * part_owed
    return owed


@njit(cache=True, nogil=True)
def _drain(indptr, indices, data, threshold, absorbing, damping, scores, residual, queue, queued,
           size):  # pragma: no cover
    """Push the `size` nodes queued at queue[0:size], first in first out, and every node whose |residual|
    comes to exceed its threshold (absorbing nodes keep theirs), until none is queued."""
    n = len(indptr) - 1
    head = 0  # queue is circular: a node is queued at most once at a time
    while size > 0:
        u = queue[head]
        head = (head + 1) % n
        size -= 1
        queued[u] = False
        mass = residual[u]
        residual[u] = 0.0
        scores[u] += (1.0 - damping) * mass
        handed = damping * mass
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            residual[v] += handed * data[e]
            if not queued[v] and not absorbing[v] and abs(residual[v]) > threshold[v]:
                queue[(head + size) % n] = v
                size += 1
                queued[v] = True


@njit(cache=True, nogil=True)
def _push(indptr, indices, data, threshold, absorbing, seeds, weights, damping, scores, residual):  # pragma: no cover
    n = len(indptr) - 1
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    size = 0
    for i in range(len(seeds)):
        residual[seeds[i]] += weights[i]
    for i in range(len(seeds)):
        u = seeds[i]
        if not absorbing[u] and not queued[u] and residual[u] > threshold[u]:
            queue[size] = u
            size += 1
            queued[u] = True
    _drain(indptr, indices, data, threshold, absorbing, damping, scores, residual, queue, queued, size)


def push_pagerank(graph: PushGraph, teleport: np.ndarray, damping: float, epsilon: float) -> np.ndarray:
    """Scores within epsilon·Σw·degree(v) below the fixed point s = (1-d)·w + d·Pᵀs (see the module doc)."""
    teleport = np.asarray(teleport, dtype=np.float64)
    n = len(teleport)
    scores, residual = np.zeros(n), np.zeros(n)
    seeds = np.flatnonzero(teleport > 0)
    if not len(seeds):
        return scores
    weights = teleport[seeds]
    threshold = epsilon * float(weights.sum()) * graph.degree
    p = graph.transition
    _push(p.indptr, p.indices, p.data, threshold, graph.absorbing,
          seeds.astype(np.int64), weights, damping, scores, residual)
    if len(graph.hubs):
        at_hubs = residual[graph.hubs]
        scores += at_hubs @ graph.hub_scores
        if graph.hub_owed is not None:
            scores[graph.hubs] += graph.hub_owed @ at_hubs
    return scores


@njit(cache=True, nogil=True)
def _push_signed(indptr, indices, data, threshold, damping, scores, residual):  # pragma: no cover
    """_push without absorbing nodes, from a residual of either sign (a correction): pushes every node
    whose |residual| exceeds its threshold, until none does."""
    n = len(indptr) - 1
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    size = 0
    for u in range(n):
        if abs(residual[u]) > threshold[u]:
            queue[size] = u
            size += 1
            queued[u] = True
    _drain(indptr, indices, data, threshold, np.zeros(n, dtype=np.bool_), damping, scores, residual, queue,
           queued, size)


@njit(cache=True, nogil=True)
def _splice(indptr, indices, data, n, rows, new_indptr, new_indices, new_data):  # pragma: no cover
    """CSR arrays of P with `rows` (sorted) replaced by the rows of (new_indptr, new_indices, new_data) and
    grown to n rows: one pass over the entries (scipy's diag·P + placed·rows took 28 ms at 1.2M entries)."""
    n_old = len(indptr) - 1
    out_ptr = np.zeros(n + 1, dtype=np.int64)
    j = 0
    for u in range(n):
        if j < len(rows) and rows[j] == u:
            out_ptr[u + 1] = out_ptr[u] + new_indptr[j + 1] - new_indptr[j]
            j += 1
        else:
            out_ptr[u + 1] = out_ptr[u] + (indptr[u + 1] - indptr[u] if u < n_old else 0)
    out_indices = np.empty(out_ptr[n], dtype=indices.dtype)
    out_data = np.empty(out_ptr[n], dtype=data.dtype)
    j = 0
    for u in range(n):
        start, length = out_ptr[u], out_ptr[u + 1] - out_ptr[u]
        if j < len(rows) and rows[j] == u:
            source, from_indices, from_data = new_indptr[j], new_indices, new_data
            j += 1
        else:
            source, from_indices, from_data = (indptr[u] if u < n_old else 0), indices, data
        for e in range(length):
            out_indices[start + e] = from_indices[source + e]
            out_data[start + e] = from_data[source + e]
    return out_ptr, out_indices, out_data


@njit(cache=True, nogil=True)
def _add_change(indptr, indices, data, rows, new_indptr, new_indices, new_data, scale, scores,
                residual):  # pragma: no cover
    """residual += scale·ΔPᵀ·G over the changed rows only, ΔP = new rows - old rows (old: P's, empty past
    its end), G = scores (hubs, n): a write's rows touch ~1e5 entries (a Type hub's row), not the n x hubs
    block a dense product writes (25 MB at x10). One hub at a time: its residual row is written in the
    order of the entries (hubs innermost wrote 15 rows 9 MB apart per entry: 15-64 ms at 100k)."""
    n_old, hubs = len(indptr) - 1, scores.shape[0]
    for h in range(hubs):
        into, of = residual[h], scores[h]
        for i in range(len(rows)):
            u = rows[i]
            weight = scale * of[u]
            if weight == 0.0:
                continue
            for e in range(new_indptr[i], new_indptr[i + 1]):
                into[new_indices[e]] += weight * new_data[e]
            if u < n_old:
                for e in range(indptr[u], indptr[u + 1]):
                    into[indices[e]] -= weight * data[e]


def grown(block: np.ndarray, n: int) -> np.ndarray:
    """`block` (hubs x n_old) widened to n columns, the new ones 0 (appended nodes: nothing reached them
    yet). In place when `block` is the left part of a buffer wide enough (the usual case: a write appends
    a few dozen nodes); else into a buffer with room for n/64 more columns. Copying the two blocks afresh
    per write cost 30 ms on a quiet machine and 2.2 s under memory pressure at 100k passages
    (2 x 15 x 1.1M float64 = 266 MB of fresh pages)."""
    n_old = block.shape[1]
    buffer = block.base
    if (isinstance(buffer, np.ndarray) and buffer.ndim == 2 and buffer.flags.c_contiguous
            and buffer.shape[0] == block.shape[0] and buffer.shape[1] >= n and block.strides == buffer.strides
            and block.__array_interface__["data"][0] == buffer.__array_interface__["data"][0]):
        widened = buffer[:, :n]
    else:
        widened = np.empty((block.shape[0], n + max(1024, n // 64)))[:, :n]
        widened[:, :n_old] = block
    widened[:, n_old:] = 0.0
    return widened


def update_push_graph(old: PushGraph, rows: np.ndarray, a_rows: sparse.csr_matrix, degree: np.ndarray,
                      damping: float, epsilon: float, reported: np.ndarray | None = None) -> PushGraph | None:
    """The push form after a change, from the form before it: `rows`, the rows of A the change touched
    (sorted; ppr/graph_copy.GraphCopy.changed_since), `a_rows` those rows of A now, `degree` every node's
    now. Nodes are only ever appended, so P is the old P with those rows replaced (O(entries) array work,
    no transpose, no iteration), and the hubs' vectors are corrected rather than computed again (8.6 s at
    100k passages): the change adds d·ΔPᵀ·G_h to their residual (ΔP: only the rows touched), and a
    forward push of that residual (either sign) leaves none above epsilon·degree(v) per node. Then G_h is
    within epsilon·degree(v) of its fixed point (an undirected graph's bound, module doc), whatever the
    updates before: the residual is carried, never dropped. None: another set of hubs (counts moved
    across sqrt(entries)); build the form afresh. `old` is used up: its hub blocks are corrected in place
    (grown), so the caller keeps only the form returned (and drops `old` before the call, in case it fails)."""
    n, n_old = len(degree), old.transition.shape[0]
    if n < n_old or old.residual is None:
        return None
    degree = np.asarray(degree, dtype=np.float64)
    scale = np.divide(1.0, degree[rows], out=np.zeros(len(rows)), where=degree[rows] > 0)
    new_rows = sparse.csr_matrix(sparse.diags(scale) @ a_rows)
    new_rows.eliminate_zeros()
    new_rows.sort_indices()
    p, rows = old.transition, np.asarray(rows, dtype=np.int64)
    indptr, indices, data = _splice(p.indptr, p.indices, p.data, n, rows,
                                    new_rows.indptr.astype(np.int64), new_rows.indices.astype(p.indices.dtype),
                                    new_rows.data)
    transition = sparse.csr_matrix((data, indices, indptr), shape=(n, n))
    hubs = hub_rows(transition)
    if {int(h) for h in old.hubs} != {int(h) for h in hubs}:
        return None
    hubs = old.hubs  # the same set: kept in its order, so the blocks' rows stay where they are
    scores, residual = grown(old.hub_scores, n), grown(old.residual, n)
    _add_change(p.indptr, p.indices, p.data, rows, new_rows.indptr.astype(np.int64), new_rows.indices,
                new_rows.data, damping / (1.0 - damping), scores, residual)
    threshold = epsilon * degree
    for column in range(len(hubs)):  # in place: each hub's row is contiguous
        _push_signed(transition.indptr, transition.indices, transition.data, threshold, damping,
                     scores[column], residual[column])
    absorbing = np.zeros(n, dtype=np.bool_)
    absorbing[hubs] = True
    return PushGraph(transition, degree, hubs, absorbing, scores, residual,
                     hub_rows_owed(scores, residual, degree, hubs, reported))
