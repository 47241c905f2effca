"""The push form after a write, corrected from the form before it (ppr/push.py holds the form and the queries).

A write changes a few rows of P: the new nodes', their neighbours', and the rows of the Type hubs that
gained or lost members. A hub's row changes in every entry, because its degree moved: at 100k passages
the 15 Type rows hold 1.01M entries, and writing d·ΔPᵀ·G_h into the residual of each of the 15 hub
vectors, then looking at every one of those entries, was the part of a write's correction that grew
with the memory (39 ms of the search after a write at 100k, 0.04 ms at MuSiQue x 3).

So a hub row's change is split in two. Its new entries (ΔA, a few) are written into the residual as
any row's are. What the new degree does to its old entries is a multiple of the row itself, kept as one
coefficient per (hub vector, hub row): residual_h = explicit_h + Σ_q lazy[h, q]·A[hubs[q]], A the
adjacency now. A later change to that row moves the coefficient's share of ΔA into the explicit part, so
the sum stays exact. The unwritten part is at most max_q |lazy[h, q]|·degree(v) at node v (A[u, v] summed
over u is degree(v)), so a coefficient is written out (its row added to the residual and pushed) once it
exceeds LAZY_SHARE·epsilon: with the explicit part below (1 - LAZY_SHARE)·epsilon·degree(v), the hub
vector keeps its bound of epsilon·degree(v). A row of degree D takes about s·G_h[q]·k/D² per write of k
members, so it is written out every ~D²/k writes and costs ~k/D of its length per write: flat in D.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit
from scipy import sparse

from memgraph_neo4j.retrieval.ppr.push import LAZY_SHARE, MAX_HUBS, PushGraph, _push_signed, grown, hub_rows_owed
from memgraph_neo4j.retrieval.ppr.slotted import widened

__all__ = ["update_push_graph"]

CORRECTION_THREADS = 4  # at most, and at most one per core
SAME = 1e-9  # relative: entries of a hub row equal before and after but for the rounding of A = P·degree


@njit(cache=True, nogil=True)
def _row_changes(start, end, indices, data, n_old, rows, new_indptr, new_indices, new_data, hub_of, old_degree,
                 new_degree):  # pragma: no cover
    """The change of the changed rows, CSR (row j for rows[j]), both rows sorted and merged so an entry both
    hold is one: ΔP (new row minus old; old: empty past n_old), or for a hub row (hub_of[j] >= 0) ΔA, its
    entries whose weight moved (A = P·degree, before and after), the rest being the row's lazy part."""
    total = 0
    for j in range(len(rows)):
        u = rows[j]
        total += new_indptr[j + 1] - new_indptr[j] + (end[u] - start[u] if u < n_old else 0)
    out_ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    out_indices = np.empty(total, dtype=np.int64)
    out_data = np.empty(total)
    at = 0
    for j in range(len(rows)):
        u = rows[j]
        hub = hub_of[j] >= 0
        old_scale, new_scale = (old_degree[j], new_degree[j]) if hub else (1.0, 1.0)
        a, a_end = (start[u], end[u]) if u < n_old else (0, 0)
        b, b_end = new_indptr[j], new_indptr[j + 1]
        while a < a_end or b < b_end:
            if a == a_end or (b < b_end and new_indices[b] < indices[a]):
                out_indices[at], out_data[at] = new_indices[b], new_scale * new_data[b]
                b += 1
            elif b == b_end or indices[a] < new_indices[b]:
                out_indices[at], out_data[at] = indices[a], -old_scale * data[a]
                a += 1
            else:
                before, after = old_scale * data[a], new_scale * new_data[b]
                out_indices[at], out_data[at] = indices[a], after - before
                a += 1
                b += 1
                if hub and abs(after - before) <= SAME * max(abs(after), abs(before)):
                    continue  # the same weight: its change is the row's lazy part
            at += 1
        out_ptr[j + 1] = at
    return out_ptr, out_indices[:at], out_data[:at]


@njit(cache=True, nogil=True)
def _add_change(rows, change_ptr, change_indices, change_data, scale, scores, residual, hub_of, old_degree,
                new_degree, lazy):  # pragma: no cover
    """residual += scale·ΔPᵀ·G over the changed rows only, G = scores (hubs, n), one hub vector at a time.
    A hub row q (hub_of[j] = q) adds g = scale·G[u] times ΔP = A_new/D' - A_old/D: lazy[h, q] takes
    g·(1/D' - 1/D) of A_new, and the explicit residual g/D·ΔA less what lazy[h, q] held of the entries
    that moved (it stood for the old A)."""
    for h in range(scores.shape[0]):
        into, of = residual[h], scores[h]
        for j in range(len(rows)):
            g = scale * of[rows[j]]
            q = hub_of[j]
            weight = g
            if q >= 0:
                weight = g / old_degree[j] - lazy[h, q]
                lazy[h, q] += g * (1.0 / new_degree[j] - 1.0 / old_degree[j])
            if weight == 0.0:
                continue
            for e in range(change_ptr[j], change_ptr[j + 1]):
                into[change_indices[e]] += weight * change_data[e]


@njit(cache=True, nogil=True)
def _write_out(start, end, indices, data, hubs, degree, lazy, budget, residual, h):  # pragma: no cover
    """Hub vector h's lazy coefficients above `budget` added to its residual (lazy[h, q]·A[hubs[q]], A =
    P·degree) and zeroed; returns the rows written, for the push to look at."""
    count = 0
    for q in range(len(hubs)):
        if abs(lazy[h, q]) > budget:
            u = hubs[q]
            count += end[u] - start[u]
    touched = np.empty(count, dtype=np.int64)
    at = 0
    for q in range(len(hubs)):
        if abs(lazy[h, q]) > budget:
            u = hubs[q]
            weight = lazy[h, q] * degree[u]
            for e in range(start[u], end[u]):
                residual[indices[e]] += weight * data[e]
                touched[at] = indices[e]
                at += 1
            lazy[h, q] = 0.0
    return touched


@njit(cache=True, nogil=True)
def _over(start, end, rows, lengths, cut):  # pragma: no cover
    """The rows with more than `cut` entries once rows[j] (sorted; new rows past len(start) too) has
    lengths[j], with their counts, and the most entries a row at or under the cut holds: one pass."""
    n_old = len(start)
    out, size, under = [], [], 0
    j = 0
    for u in range(n_old):
        while j < len(rows) and rows[j] < u:
            j += 1
        length = lengths[j] if j < len(rows) and rows[j] == u else end[u] - start[u]
        if length > cut:
            out.append(u)
            size.append(length)
        else:
            under = max(under, length)
    for k in range(len(rows)):
        if rows[k] >= n_old:
            if lengths[k] > cut:
                out.append(rows[k])
                size.append(lengths[k])
            else:
                under = max(under, lengths[k])
    return np.array(out, dtype=np.int64), np.array(size, dtype=np.int64), under


def same_hubs(old: PushGraph, rows: np.ndarray, lengths: np.ndarray) -> tuple[bool, int, int]:
    """Whether ppr/push.hub_rows gives `old.hubs` again once rows[j] has lengths[j] entries; and the form's
    new `entries` and `below`. From the touched rows when the old bound tells (every hub still over the
    cut and over any other row); else one pass over every row (3-6 ms at 1.1M nodes)."""
    p, n_old = old.transition, old.transition.n
    before = np.where(rows < n_old, p.end[np.minimum(rows, n_old - 1)] - p.start[np.minimum(rows, n_old - 1)], 0)
    entries = (old.entries if old.entries is not None else int(p.counts().sum())) + int((lengths - before).sum())
    cut = math.sqrt(max(entries, 1))
    at = np.searchsorted(rows, old.hubs)
    touched = (at < len(rows)) & (rows[np.minimum(at, len(rows) - 1)] == old.hubs) if len(rows) else at < 0
    hub_lengths = p.end[old.hubs] - p.start[old.hubs]
    hub_lengths[touched] = lengths[at[touched]]
    others = np.ones(len(rows), dtype=bool)
    others[at[touched]] = False
    below = max(old.below if old.below is not None else entries, int(lengths[others].max(initial=0)))
    least = int(hub_lengths.min(initial=entries + 1))
    if least > cut and (below <= cut if len(old.hubs) < MAX_HUBS else below < least):
        return True, entries, below
    over, size, under = _over(p.start, p.end, rows, lengths, cut)
    order = np.argsort(-size, kind="stable")  # ppr/push.hub_rows: most entries first, at most MAX_HUBS
    same = {int(h) for h in old.hubs} == {int(h) for h in over[order[:MAX_HUBS]]}
    return same, entries, max(under, int(size[order[MAX_HUBS:]].max(initial=0)))


def _parts(hubs: int) -> list[range]:
    """The hubs in contiguous parts, one per core (at most CORRECTION_THREADS): the correction's kernels
    run in parallel on them (2 cores: 15 hubs' residual scatter and push, 35-60 ms -> about half)."""
    count = max(1, min(CORRECTION_THREADS, os.cpu_count() or 1, hubs))
    bounds = np.linspace(0, hubs, count + 1).astype(int)
    return [range(bounds[i], bounds[i + 1]) for i in range(count)]


def update_push_graph(old: PushGraph, rows: np.ndarray, a_rows: sparse.csr_matrix, degree: np.ndarray,
                      damping: float, epsilon: float, reported: np.ndarray | None = None) -> PushGraph | None:
    """The push form after a change, from the form before it: `rows`, the rows of A the change touched
    (sorted; ppr/graph_copy.GraphCopy.changed_since), `a_rows` those rows of A now, `degree` every node's
    now. Nodes are only ever appended, so P is the old P with those rows replaced in their slots
    (ppr/slotted.py: no whole copy, no transpose, no iteration), and the hubs' vectors are corrected
    rather than computed again (8.6 s at 100k passages): the change adds d·ΔPᵀ·G_h to their residual (ΔP:
    only the rows touched; a hub row's renormalisation as its lazy part, module doc), and a forward push
    of that residual (either sign) leaves none above (1 - LAZY_SHARE)·epsilon·degree(v) per node. Then G_h
    is within epsilon·degree(v) of its fixed point (an undirected graph's bound, ppr/push.py), whatever
    the updates before: the residual is carried, never dropped. Where a hub's own score is reported
    (hub_rows_owed reads the residual) nothing is left lazy.
    None: another set of hubs (counts moved across sqrt(entries)), nothing changed; build the form afresh.
    Else `old` is used up: P and its hub blocks are changed in place, so the caller keeps only the form
    returned (and drops `old` before the call, in case it fails)."""
    p = old.transition
    n, n_old = len(degree), p.n
    if n < n_old or old.residual is None:
        return None
    degree = np.asarray(degree, dtype=np.float64)
    rows = np.asarray(rows, dtype=np.int64)
    scale = np.divide(1.0, degree[rows], out=np.zeros(len(rows)), where=degree[rows] > 0)
    # P's rows: A's scaled in place of a copy (a product with diag(scale) came out unsorted, and sorting the
    # Type rows again cost 22 ms a write at 1.1M nodes)
    new_rows = sparse.csr_matrix(a_rows, copy=True)
    new_rows.data *= np.repeat(scale, np.diff(new_rows.indptr))
    new_rows.eliminate_zeros()
    if not new_rows.has_sorted_indices:
        new_rows.sort_indices()
    new_indptr = new_rows.indptr.astype(np.int64)
    same, entries, below = same_hubs(old, rows, np.diff(new_indptr))
    if not same:
        return None
    hubs = old.hubs  # the same set: kept in its order, so the blocks' rows stay where they are
    lazy = old.lazy if old.lazy is not None else np.zeros((len(hubs), len(hubs)))
    budget = LAZY_SHARE * epsilon if reported is None or not reported[hubs].any() else 0.0
    hub_of = np.full(len(rows), -1, dtype=np.int64)
    at = np.searchsorted(rows, hubs)
    held = at < len(rows)
    held[held] = rows[at[held]] == hubs[held]
    hub_of[at[held]] = np.flatnonzero(held)
    old_degree = np.where(hub_of >= 0, old.degree[np.minimum(rows, n_old - 1)], 1.0)
    new_degree = np.where(hub_of >= 0, degree[rows], 1.0)
    change_ptr, change_indices, change_data = _row_changes(p.start, p.end, p.indices, p.data, n_old, rows,
                                                           new_indptr, new_rows.indices, new_rows.data, hub_of,
                                                           old_degree, new_degree)
    p.replace(rows, new_rows, n)
    scores, residual = grown(old.hub_scores, n), grown(old.residual, n)
    # where a residual or a threshold moved, each node once, in order
    candidates, factor = np.unique(np.concatenate([change_indices, rows])), (1.0 - LAZY_SHARE) * epsilon
    absorbing = widened(old.absorbing, n)  # the same hubs; appended nodes are not
    nowhere = np.zeros(n, dtype=np.bool_)

    def correct(part: range) -> None:  # the hubs' rows are independent: a thread each part (the kernels free the GIL)
        block = slice(part.start, part.stop)
        _add_change(rows, change_ptr, change_indices, change_data, damping / (1.0 - damping), scores[block],
                    residual[block], hub_of, old_degree, new_degree, lazy[block])
        for column in part:  # in place: each hub's row is contiguous
            written = _write_out(p.start, p.end, p.indices, p.data, hubs, degree, lazy, budget, residual[column],
                                 column)
            _push_signed(p.start, p.end, p.indices, p.data, factor, degree, damping, scores[column], residual[column],
                         np.concatenate([candidates, written]) if len(written) else candidates, nowhere)

    parts = _parts(len(hubs))
    if len(parts) > 1:
        with ThreadPoolExecutor(len(parts), thread_name_prefix="push-correction") as pool:
            list(pool.map(correct, parts))
    else:
        correct(parts[0])
    return PushGraph(p, degree, hubs, absorbing, scores, residual,
                     hub_rows_owed(scores, residual, degree, hubs, reported), lazy, entries, below)
