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

MAX_HUBS = 64  # hub vectors held: n x 64 float32 (~280 MB at 1.1M nodes); the 100k space needs 15


@dataclass(frozen=True)
class PushGraph:
    transition: sparse.csr_matrix  # P: row u holds u's out-edges divided by its weighted degree
    degree: np.ndarray  # weighted degree per node (float64)
    hubs: np.ndarray  # rows of the hub nodes
    absorbing: np.ndarray  # bool per node: a hub
    hub_scores: np.ndarray  # (n, hubs) float32: G_h, each hub's personalised PageRank with its whole weight 1


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
                     tolerance: float, max_iterations: int = 100) -> PushGraph:
    """From the local engine's Pᵀ; the hub vectors by the same iteration as the engine's, run to
    `tolerance` (a block of columns at once: 8.6 s for the 15 hubs of the 100k space)."""
    transition = _forward(transition_t)
    n = transition.shape[0]
    hubs = hub_rows(transition)
    absorbing = np.zeros(n, dtype=np.bool_)
    absorbing[hubs] = True
    seeds = np.zeros((n, len(hubs)))
    seeds[hubs, np.arange(len(hubs))] = 1.0  # one column per hub: the engine's iteration, all at once
    scores = personalized_pagerank(transition_t, seeds, damping, max_iterations, tolerance)
    return PushGraph(transition, np.asarray(degree, dtype=np.float64), hubs, absorbing,
                     np.ascontiguousarray(scores, dtype=np.float32))


@njit(cache=True, nogil=True)
def _push(indptr, indices, data, threshold, absorbing, seeds, weights, damping, scores, residual):  # pragma: no cover
    n = len(indptr) - 1
    queue = np.empty(n, dtype=np.int64)  # circular: a node is queued at most once at a time
    queued = np.zeros(n, dtype=np.bool_)
    head, size = 0, 0
    for i in range(len(seeds)):
        residual[seeds[i]] += weights[i]
    for i in range(len(seeds)):
        u = seeds[i]
        if not absorbing[u] and not queued[u] and residual[u] > threshold[u]:
            queue[(head + size) % n] = u
            size += 1
            queued[u] = True
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
            if not queued[v] and not absorbing[v] and residual[v] > threshold[v]:
                queue[(head + size) % n] = v
                size += 1
                queued[v] = True


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
        scores += graph.hub_scores @ residual[graph.hubs].astype(np.float32)
    return scores


@njit(cache=True, nogil=True)
def _push_signed(indptr, indices, data, threshold, damping, scores, residual):  # pragma: no cover
    """_push without absorbing nodes, from a residual of either sign (a correction): pushes every node
    whose |residual| exceeds its threshold, until none does."""
    n = len(indptr) - 1
    queue = np.empty(n, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    head, size = 0, 0
    for u in range(n):
        if abs(residual[u]) > threshold[u]:
            queue[size] = u
            size += 1
            queued[u] = True
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
            if not queued[v] and abs(residual[v]) > threshold[v]:
                queue[(head + size) % n] = v
                size += 1
                queued[v] = True


def update_push_graph(old: PushGraph, transition_t: sparse.csr_matrix, degree: np.ndarray, damping: float,
                      tolerance: float, epsilon: float) -> PushGraph:
    """The push form of a changed graph from the form before the change: the hubs' vectors corrected, not
    computed again (8.6 s at 100k passages). Nodes only ever get appended (ppr/graph_copy.GrowingNodes), so
    the old vectors G_h, padded with zeros, are a start whose residual under the new P,
    r = (1-d)·e_h + d·Pᵀ·G_h - G_h, is what the change moved (and the start's own error). G_h + x with
    x = (1-d)·(I - d·Pᵀ)⁻¹·r/(1-d) is the new fixed point; a forward push from r/(1-d) computes x to
    epsilon·|r|·degree(v) per node (the query push's bound, module doc), and leaves no node whose residual
    exceeds that, however many updates came before: the error does not add up over the updates.
    Another set of hubs (the counts moved across sqrt(entries)): built afresh."""
    transition = _forward(transition_t)
    n = transition.shape[0]
    hubs = hub_rows(transition)
    before = {int(h): i for i, h in enumerate(old.hubs)}
    if set(before) != {int(h) for h in hubs} or n < len(old.degree):
        return build_push_graph(transition_t, degree, damping, tolerance)
    scores = np.zeros((n, len(hubs)))
    scores[: old.hub_scores.shape[0]] = old.hub_scores[:, [before[int(h)] for h in hubs]]
    start = np.zeros((n, len(hubs)))
    start[hubs, np.arange(len(hubs))] = 1.0 - damping
    residual = start + damping * (transition_t @ scores) - scores
    degree = np.asarray(degree, dtype=np.float64)
    p = transition
    for column in range(len(hubs)):
        r = np.ascontiguousarray(residual[:, column]) / (1.0 - damping)
        threshold = epsilon * float(np.abs(r).sum()) * degree
        x = np.zeros(n)
        _push_signed(p.indptr, p.indices, p.data, threshold, damping, x, r)
        scores[:, column] += x
    absorbing = np.zeros(n, dtype=np.bool_)
    absorbing[hubs] = True
    return PushGraph(transition, degree, hubs, absorbing, np.ascontiguousarray(scores, dtype=np.float32))
