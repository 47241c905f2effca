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

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.retrieval.ppr.local import personalized_pagerank
from memgraph_neo4j.retrieval.ppr.slotted import SlottedRows

__all__ = ["LAZY_SHARE", "PushGraph", "build_push_graph", "grown", "push_pagerank"]

MAX_HUBS = 64  # hub vectors held: 64 x n float64, and their residual (~1.1 GB at 1.1M nodes); 100k needs 15
# of the bound epsilon·degree(v) a hub vector keeps: its explicit residual is pushed below (1 - LAZY_SHARE)
# of it; the rest is room for the change a hub row's new degree makes, held as a coefficient (push_update.py)
LAZY_SHARE = 0.5
OWED_BLOCK = 1 << 16  # nodes per block of hub_rows_owed's product: 15 hubs x 65,536 x 8 B = 7.9 MB


@dataclass(frozen=True)
class PushGraph:
    transition: SlottedRows  # P: row u holds u's out-edges divided by its weighted degree (rows replaceable)
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
    # (hubs, hubs): lazy[h, q] · A[hubs[q]] is residual of hub h not written out (A: the adjacency now): what
    # hub q's renormalised row added to it (push_update.py); 0 in a form built afresh
    lazy: np.ndarray | None = None
    # the entries of P, and at least as many as any row that is not a hub holds: a correction then tells
    # the hub set unchanged from the rows it touched (push_update.py), without a pass over every row
    entries: int | None = None
    below: int | None = None


def hub_rows(counts: np.ndarray) -> np.ndarray:
    """Nodes with more than sqrt(entries) out-entries, most first (a corrected form keeps the order of its
    build), at most MAX_HUBS. Pushing one costs
    its degree every time it fills up; there can be at most sqrt(entries) of them, so their exact vectors
    cost a bounded number of columns (the 100k space: 15 Type nodes, each over 15k entries; the largest
    entity has 1,064)."""
    rows = np.flatnonzero(counts > math.sqrt(max(int(counts.sum()), 1)))
    return rows[np.argsort(-counts[rows], kind="stable")][:MAX_HUBS]


def _forward(transition_t: sparse.csr_matrix) -> SlottedRows:
    """P from Pᵀ, in the kernels' layout (rows in slots, sorted, int64 offsets: once here, not per query)."""
    return SlottedRows.from_csr(transition_t.T.tocsr())


def build_push_graph(transition_t: sparse.csr_matrix, degree: np.ndarray, damping: float,
                     tolerance: float, max_iterations: int = 100, reported: np.ndarray | None = None,
                     epsilon: float = RetrievalConfig.push_epsilon) -> PushGraph:
    """From the local engine's Pᵀ; the hub vectors by the same iteration as the engine's, run to
    `tolerance` (a block of columns at once: 8.6 s for the 15 hubs of the 100k space), then pushed to
    the queries' `epsilon`. `reported`: the nodes whose scores a ranking reports (hub_rows_owed; None: all)."""
    transition = _forward(transition_t)
    n = transition.n
    counts = transition.counts()
    hubs = hub_rows(counts)
    absorbing = np.zeros(n, dtype=np.bool_)
    absorbing[hubs] = True
    seeds = np.zeros((n, len(hubs)))
    seeds[hubs, np.arange(len(hubs))] = 1.0  # one column per hub: the engine's iteration, all at once
    scores = personalized_pagerank(transition_t, seeds, damping, max_iterations, tolerance)
    residual = ((1.0 - damping) * seeds + damping * (transition_t @ scores) - scores) / (1.0 - damping)
    degree = np.asarray(degree, dtype=np.float64)
    # in buffers with room to grow: the corrections widen them in place
    scores, residual = grown(np.ascontiguousarray(scores.T), n), grown(np.ascontiguousarray(residual.T), n)
    # pushed until no node's residual is above (1 - LAZY_SHARE)·epsilon·degree: the bound a correction
    # keeps (push_update.py), and it then looks only where a change moved a residual or a degree
    everywhere, factor = np.arange(n, dtype=np.int64), (1.0 - LAZY_SHARE) * epsilon
    nowhere = np.zeros(n, dtype=np.bool_)  # no node absorbs in a hub's own vector
    for column in range(len(hubs)):
        _push_signed(transition.start, transition.end, transition.indices, transition.data, factor, degree,
                     damping, scores[column], residual[column], everywhere, nowhere)
    return PushGraph(transition, degree, hubs, absorbing, scores, residual,
                     hub_rows_owed(scores, residual, degree, hubs, reported), np.zeros((len(hubs), len(hubs))),
                     int(counts.sum()), int(np.delete(counts, hubs).max(initial=0)))


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
def _drain(start, end, indices, data, factor, degree, absorbing, damping, scores, residual, queue, queued,
           size):  # pragma: no cover
    """Push the `size` nodes queued at queue[0:size], first in first out, and every node whose |residual|
    comes to exceed its threshold factor·degree (absorbing nodes keep theirs), until none is queued: the
    thresholds are not an n-long array (1.1M nodes: 2 ms a query, 2 ms a correction). Row u of P is
    indices/data[start[u]:end[u]]."""
    n = len(start)
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
        for e in range(start[u], end[u]):
            v = indices[e]
            residual[v] += handed * data[e]
            if not queued[v] and not absorbing[v] and abs(residual[v]) > factor * degree[v]:
                queue[(head + size) % n] = v
                size += 1
                queued[v] = True


@njit(cache=True, nogil=True)
def _push(start, end, indices, data, factor, degree, absorbing, seeds, weights, damping, scores,
          residual):  # pragma: no cover
    n = len(start)
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    size = 0
    for i in range(len(seeds)):
        residual[seeds[i]] += weights[i]
    for i in range(len(seeds)):
        u = seeds[i]
        if not absorbing[u] and not queued[u] and residual[u] > factor * degree[u]:
            queue[size] = u
            size += 1
            queued[u] = True
    _drain(start, end, indices, data, factor, degree, absorbing, damping, scores, residual, queue, queued, size)


def push_pagerank(graph: PushGraph, teleport: np.ndarray, damping: float, epsilon: float) -> np.ndarray:
    """Scores within epsilon·Σw·degree(v) below the fixed point s = (1-d)·w + d·Pᵀs (see the module doc)."""
    teleport = np.asarray(teleport, dtype=np.float64)
    n = len(teleport)
    scores, residual = np.zeros(n), np.zeros(n)
    seeds = np.flatnonzero(teleport > 0)
    if not len(seeds):
        return scores
    weights = teleport[seeds]
    factor = epsilon * float(weights.sum())
    p = graph.transition
    _push(p.start, p.end, p.indices, p.data, factor, graph.degree, graph.absorbing,
          seeds.astype(np.int64), weights, damping, scores, residual)
    if len(graph.hubs):
        at_hubs = residual[graph.hubs]
        scores += at_hubs @ graph.hub_scores
        if graph.hub_owed is not None:
            scores[graph.hubs] += graph.hub_owed @ at_hubs
    return scores


@njit(cache=True, nogil=True)
def _push_signed(start, end, indices, data, factor, degree, damping, scores, residual, candidates,
                 nowhere):  # pragma: no cover
    """_push without absorbing nodes (`nowhere`: all False), from a residual of either sign (a correction):
    pushes every node whose |residual| exceeds its threshold, until none does. Only `candidates` are
    looked at first: every other node is within its threshold already (a correction's residual moved at
    the entries it touched, thresholds at the rows whose degree changed; a full scan was 15 x 1.1M nodes
    per write at 100k)."""
    n = len(start)
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    size = 0
    for i in range(len(candidates)):
        u = candidates[i]
        if not queued[u] and abs(residual[u]) > factor * degree[u]:
            queue[size] = u
            size += 1
            queued[u] = True
    _drain(start, end, indices, data, factor, degree, nowhere, damping, scores, residual, queue,
           queued, size)


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
