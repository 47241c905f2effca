"""One vector layer kept in process (rows upserted and removed in place) and its exact top-k.

A layer updated by deltas holds its rows in another order than a fresh build of the same rows, so
nothing here may depend on the row order: ties are broken by id, and the scores reported are computed
per row in a way that does not depend on where the row sits in the matrix (see `Layer.search`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memgraph_neo4j.repository.layers import ExportRow

__all__ = ["CanonicalLayer", "Layer", "check_dimension", "top_rows"]

# Bound on |float32 BLAS dot - exact dot| for unit vectors is d * 2**-24 (any summation order); twice
# that (one error on each side of the comparison), with room to spare, is d * eps32.
_SLACK_PER_DIMENSION = 2 * float(np.finfo(np.float32).eps)


def top_rows(scores: np.ndarray, allowed: np.ndarray | None, k: int,
             keys: Sequence[str] | None = None) -> np.ndarray:
    """Row numbers of the k best scores among the allowed rows, best first. Ties: lower row first, or,
    given `keys` (one per row, e.g. ids), lower key first, which does not depend on the row order."""
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
        k = min(k, int(allowed.sum()))
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    if keys is None:
        return part[np.lexsort((part, -scores[part]))]
    bound = scores[part].min()
    tied = scores == bound
    if allowed is not None:
        tied &= allowed
    if np.count_nonzero(tied) > np.count_nonzero(scores[part] == bound):
        # argpartition kept an arbitrary subset of the rows tied at the k-th score: take them all
        part = np.concatenate((part[scores[part] > bound], np.flatnonzero(tied)))
    order = part[np.argsort(-scores[part], kind="stable")]
    s = scores[order]
    same = s[1:] == s[:-1]
    if same.any():  # only rows in a run of equal scores are ranked by key
        in_run = np.zeros(len(s), dtype=bool)
        in_run[1:] |= same
        in_run[:-1] |= same
        runs = np.flatnonzero(in_run)
        rank = np.zeros(len(s), dtype=np.int64)
        rank[runs] = np.argsort(np.argsort(np.array([keys[i] for i in order[runs]], dtype=object), kind="stable"))
        order = order[np.lexsort((rank, -s))]
    return order[:k]


def check_dimension(rows: Iterable[ExportRow], dimension: int) -> None:
    for r in rows:
        if len(r.embedding) != dimension:
            raise ValueError(f"{r.layer} {r.id!r} has a {len(r.embedding)}-dimensional embedding, the "
                             f"query {dimension}: the space was embedded with another model; query with that one")


def _unit_rows(rows: Sequence[ExportRow], dimension: int) -> np.ndarray:
    """The rows' embeddings as float32 unit rows; each row's result depends on that row alone, so a row
    normalised in a build and by an apply are bit-identical."""
    matrix = np.asarray([r.embedding for r in rows], dtype=np.float32).reshape(len(rows), dimension)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.maximum(norms, 1e-12)  # cosine, whatever the provider stored
    return matrix


def _exact_scores(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Row-by-row dot products in float64 (float32 products are exact there): the same bits for a row
    wherever it sits, unlike BLAS, whose last bits depend on the row's position in its blocks."""
    return (matrix.astype(np.float64) * vector.astype(np.float64)).sum(axis=1)


@dataclass(eq=False)
class CanonicalLayer:
    """A layer's content sorted by id, comparable across copies (`==` compares the matrices' bits)."""

    ids: list[str]
    states: list[str | None]
    texts: list[str | None]
    fields: list[list[Any]]
    matrix: np.ndarray  # (rows, dimension) float32

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CanonicalLayer):
            return NotImplemented
        return ((self.ids, self.states, self.texts, self.fields) == (other.ids, other.states, other.texts, other.fields)
                and self.matrix.shape == other.matrix.shape and self.matrix.dtype == other.matrix.dtype
                and self.matrix.tobytes() == other.matrix.tobytes())


class Layer:
    """The rows of one layer, in no particular order: `ids[i]`, `states[i]`, `matrix[i]`, `texts[i]` and
    `fields[i]` describe row i. The matrix and states live in buffers grown by doubling, so an upsert
    costs its own rows (amortised); a removed row is replaced by the last one."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.ids: list[str] = []
        self.texts: list[str | None] = []
        self.fields: list[list[Any]] = []
        self._row: dict[str, int] = {}
        self._matrix = np.zeros((0, dimension), dtype=np.float32)
        self._states = np.empty(0, dtype=object)  # str per row (None for passages)
        self._masks: dict[tuple[str, ...], np.ndarray] = {}  # buffers as long as _matrix, kept up to date

    @classmethod
    def from_rows(cls, rows: Sequence[ExportRow], dimension: int) -> Layer:
        check_dimension(rows, dimension)
        layer = cls(dimension)
        layer.upsert(rows)
        return layer

    @property
    def matrix(self) -> np.ndarray:
        """(rows, dimension) float32, unit rows (a view: valid until the next change)."""
        return self._matrix[:len(self.ids)]

    @property
    def states(self) -> np.ndarray:
        return self._states[:len(self.ids)]

    def __len__(self) -> int:
        return len(self.ids)

    def _reserve(self, size: int) -> None:
        capacity = len(self._matrix)
        if size <= capacity:
            return
        capacity = max(size, 2 * capacity)  # a first build takes exactly its size
        n = len(self.ids)
        matrix = np.zeros((capacity, self.dimension), dtype=np.float32)
        matrix[:n] = self._matrix[:n]
        states = np.empty(capacity, dtype=object)
        states[:n] = self._states[:n]
        self._matrix, self._states = matrix, states
        for key, old in self._masks.items():
            self._masks[key] = np.zeros(capacity, dtype=bool)
            self._masks[key][:n] = old[:n]

    def upsert(self, rows: Sequence[ExportRow]) -> None:
        """Replaces the rows of known ids and appends the others (rows of this layer, of the right
        dimension: see `check_dimension`). An id given twice keeps its last row."""
        latest = {r.id: r for r in rows}
        known = [r for r in latest.values() if r.id in self._row]
        new = [r for r in latest.values() if r.id not in self._row]
        if known:
            at = np.fromiter((self._row[r.id] for r in known), dtype=np.int64, count=len(known))
            self._set(at, known)
            for i, r in zip(at.tolist(), known):
                self.texts[i], self.fields[i] = r.text, r.fields
        if new:
            n = len(self.ids)
            self._reserve(n + len(new))
            self._row.update((r.id, n + j) for j, r in enumerate(new))
            self.ids.extend(r.id for r in new)
            self.texts.extend(r.text for r in new)
            self.fields.extend(r.fields for r in new)
            self._set(np.arange(n, n + len(new)), new)

    def _set(self, at: np.ndarray, rows: Sequence[ExportRow]) -> None:
        states = np.empty(len(rows), dtype=object)
        states[:] = [r.state for r in rows]
        self._matrix[at] = _unit_rows(rows, self.dimension)
        self._states[at] = states
        for key, mask in self._masks.items():
            mask[at] = np.isin(states, list(key))

    def remove(self, ids: Iterable[str]) -> None:
        """Drops the rows of these ids (unknown ids are ignored)."""
        for id_ in ids:
            i = self._row.pop(id_, None)
            if i is None:
                continue
            last = len(self.ids) - 1
            if i != last:  # the last row fills the hole
                self._matrix[i] = self._matrix[last]
                self._states[i] = self._states[last]
                for mask in self._masks.values():
                    mask[i] = mask[last]
                self.ids[i], self.texts[i], self.fields[i] = self.ids[last], self.texts[last], self.fields[last]
                self._row[self.ids[i]] = i
            self._states[last] = None
            del self.ids[last], self.texts[last], self.fields[last]

    def mask(self, states: Iterable[str]) -> np.ndarray:
        """Rows in one of `states`; kept per state set (isin over strings costs ~1 ms a call) and
        updated by each change."""
        key = tuple(sorted(states))
        if key not in self._masks:
            self._masks[key] = np.zeros(len(self._matrix), dtype=bool)
            self._masks[key][:len(self.ids)] = np.isin(self.states, list(key))
        return self._masks[key][:len(self.ids)]

    def search(self, vector: np.ndarray, k: int, states: Iterable[str] | None = None) -> list[tuple[int, float]]:
        """(row, cosine) of the k best rows, best first, ties by id. BLAS ranks all rows; the rows within
        its error of the k-th best are scored again row by row, so the hits and their scores do not
        depend on the row order."""
        if k <= 0 or not self.ids:
            return []
        scores = self.matrix @ vector
        if states is not None:
            allowed = self.mask(states)
            scores = np.where(allowed, scores, -np.inf)
            k = min(k, int(allowed.sum()))
        k = min(k, len(scores))
        if k <= 0:
            return []
        kth = -np.partition(-scores, k - 1)[k - 1]
        near = np.flatnonzero(scores >= kth - _SLACK_PER_DIMENSION * self.dimension)
        exact = _exact_scores(self.matrix[near], vector)
        return [(int(near[i]), float(exact[i])) for i in top_rows(exact, None, k, [self.ids[j] for j in near])]

    def canonical(self) -> CanonicalLayer:
        order = sorted(range(len(self.ids)), key=self.ids.__getitem__)
        return CanonicalLayer([self.ids[i] for i in order], [self.states[i] for i in order],
                              [self.texts[i] for i in order], [list(self.fields[i]) for i in order],
                              self.matrix[np.asarray(order, dtype=np.int64)].copy())
