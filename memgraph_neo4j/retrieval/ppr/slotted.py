"""A sparse matrix whose rows can be replaced in place: each row in a slot of its own (start, end, room).

The push form's P changes a few rows per write (the new nodes', their neighbours', the Type hubs'). As
CSR every change rewrites all of it: at 100k passages (6.48M entries) the splice wrote 78 MB of fresh
arrays per write, 42-65 ms. Here a row that still fits its slot is written there; one that outgrew it
moves to the tail of the arrays with half as much again of room (so a growing hub row moves O(log)
times, not per write), and the slot it left is dead space, reclaimed by a compaction once dead entries
outnumber live ones. The push kernels read rows as indices[start[u]:end[u]], so a compaction is the
only whole copy, amortised over many writes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy import sparse

__all__ = ["SlottedRows", "widened"]

MIN_ROOM = 2  # a relocated row's slot: its length and half again, and at least this many spare entries


def widened(array: np.ndarray, n: int) -> np.ndarray:
    """`array` (1-D) lengthened to n, the new entries 0: in place when it is the front of a buffer long
    enough (a write appends a few dozen nodes), else into a buffer with n/64 of room."""
    buffer = array.base
    if (isinstance(buffer, np.ndarray) and buffer.ndim == 1 and buffer.dtype == array.dtype
            and len(buffer) >= n and array.__array_interface__["data"][0] == buffer.__array_interface__["data"][0]):
        longer = buffer[:n]
    else:
        longer = np.empty(n + max(1024, n // 64), dtype=array.dtype)[:n]
        longer[: len(array)] = array
    longer[len(array):] = 0
    return longer


@njit(cache=True, nogil=True)
def _relocated(start, room, n_old, rows, new_indptr):  # pragma: no cover
    """Entries of tail space the replacement needs: rows past their slot's room (or new) move there."""
    need = 0
    for j in range(len(rows)):
        u, length = rows[j], new_indptr[j + 1] - new_indptr[j]
        if u >= n_old or length > room[u]:
            need += length + max(length // 2, MIN_ROOM)
    return need


@njit(cache=True, nogil=True)
def _place(start, end, room, indices, data, used, n_old, rows, new_indptr, new_indices, new_data):  # pragma: no cover
    """Write the rows (sorted) into their slots, or at `used` when they outgrew them; returns the new
    `used` and the entries left dead."""
    dead = 0
    for j in range(len(rows)):
        u, length = rows[j], new_indptr[j + 1] - new_indptr[j]
        if u >= n_old or length > room[u]:
            if u < n_old:
                dead += room[u]
            start[u], room[u] = used, length + max(length // 2, MIN_ROOM)
            used += room[u]
        at = start[u]
        for e in range(length):
            indices[at + e] = new_indices[new_indptr[j] + e]
            data[at + e] = new_data[new_indptr[j] + e]
        end[u] = at + length
    return used, dead


@njit(cache=True, nogil=True)
def _packed(start, end, room, indices, data, capacity):  # pragma: no cover
    """The rows copied in row order into arrays of `capacity` entries, each keeping its slot's room."""
    out_indices = np.empty(capacity, dtype=indices.dtype)
    out_data = np.empty(capacity, dtype=data.dtype)
    at = 0
    for u in range(len(start)):
        length = end[u] - start[u]
        for e in range(length):
            out_indices[at + e] = indices[start[u] + e]
            out_data[at + e] = data[start[u] + e]
        start[u], end[u] = at, at + length
        at += room[u]
    return out_indices, out_data, at


@njit(cache=True, nogil=True)
def _spread(indptr, from_indices, from_data, start, indices, data):  # pragma: no cover
    """CSR rows copied to their slots."""
    for u in range(len(start)):
        at = start[u]
        for e in range(indptr[u], indptr[u + 1]):
            indices[at] = from_indices[e]
            data[at] = from_data[e]
            at += 1


@dataclass
class SlottedRows:
    """An n x n sparse matrix, row u at indices/data[start[u]:end[u]] (sorted columns) in a slot of
    room[u] entries. Changed in place by replace(); the arrays are views of buffers with room."""

    start: np.ndarray  # int64 per row
    end: np.ndarray  # int64 per row
    room: np.ndarray  # int64 per row: the slot's entries
    indices: np.ndarray  # column per entry (the buffer: entries past `used` are free)
    data: np.ndarray  # float64 per entry
    used: int  # entries of the buffers given to slots
    dead: int = 0  # entries of slots rows left

    @classmethod
    def from_csr(cls, matrix: sparse.csr_matrix) -> SlottedRows:
        """From CSR (rows sorted): each slot its row and an eighth more (a Type hub of 264k entries then
        takes 33k new members in place; without it the first writes moved the hub rows one by one, and
        compacted twice), the buffers with an eighth of room."""
        matrix.sort_indices()
        n = matrix.shape[0]
        counts = np.diff(matrix.indptr).astype(np.int64)
        start, end, room = (widened(np.zeros(0, dtype=np.int64), n) for _ in range(3))
        room[:] = counts + counts // 8
        start[0:1] = 0
        np.cumsum(room[:-1], out=start[1:])
        end[:] = start + counts
        used = int(room.sum())
        spare = max(1024, used // 8)
        indices, data = np.empty(used + spare, dtype=matrix.indices.dtype), np.empty(used + spare)
        _spread(matrix.indptr.astype(np.int64), matrix.indices, matrix.data, start, indices, data)
        return cls(start, end, room, indices, data, used)

    @property
    def n(self) -> int:
        return len(self.start)

    @property
    def nnz(self) -> int:
        return self.used - self.dead - int((self.room - (self.end - self.start)).sum())

    def counts(self) -> np.ndarray:
        return self.end - self.start

    def to_csr(self) -> sparse.csr_matrix:
        counts = self.counts()
        indptr = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        take = np.repeat(self.start - indptr[:-1], counts) + np.arange(indptr[-1])
        return sparse.csr_matrix((self.data[take], self.indices[take], indptr), shape=(self.n, self.n))

    def lengths_after(self, rows: np.ndarray, lengths: np.ndarray, n: int) -> np.ndarray:
        """Every row's entry count once `rows` have `lengths` and the matrix has n rows (nothing changed)."""
        counts = np.zeros(n, dtype=np.int64)
        counts[: self.n] = self.counts()
        counts[rows] = lengths
        return counts

    def replace(self, rows: np.ndarray, new: sparse.csr_matrix, n: int) -> None:
        """Rows `rows` (sorted, row j of `new` for rows[j]) replaced and the matrix grown to n rows (new
        rows are empty unless in `rows`). Compacts first when the tail lacks the room, or when dead
        entries would outnumber the live ones."""
        n_old = self.n
        if n > n_old:
            self.start, self.end, self.room = (widened(a, n) for a in (self.start, self.end, self.room))
            self.start[n_old:] = self.end[n_old:] = self.used  # empty rows, no room: the first entry moves them
        rows = np.asarray(rows, dtype=np.int64)
        indptr = new.indptr.astype(np.int64)
        indices = new.indices.astype(self.indices.dtype, copy=False)
        need = _relocated(self.start, self.room, n_old, rows, indptr)
        if need > len(self.indices) - self.used or self.dead > (self.used - self.dead):
            self.compact(need)
        self.used, dead = _place(self.start, self.end, self.room, self.indices, self.data, self.used, n_old,
                                 rows, indptr, indices, new.data.astype(np.float64, copy=False))
        self.dead += dead

    def compact(self, spare: int = 0) -> None:
        """Dead slots dropped: the rows in row order, each with its room; buffers with `spare` entries and
        an eighth more of room."""
        total = int(self.room.sum())
        self.indices, self.data, self.used = _packed(self.start, self.end, self.room, self.indices, self.data,
                                                     total + spare + max(1024, total // 8))
        self.dead = 0
