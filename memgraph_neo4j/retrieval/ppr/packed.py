"""The graph copy's two large maps, held so that a copy kept on disk loads as arrays, not as objects.

A pickled dict of Python tuples loads at ~0.3 µs an object: at 100k passages the owners' edges (2M
owners, 3.3M edges) took 6.8 s and the (kind, id) -> row map (1.1M nodes) 2.0 s of a new process's first
search. Kept as arrays (edge ends and weights, offsets per owner; ids sorted per kind) they load at the
speed of the disk. The maps answer as the dicts did; the dicts are built again only when a write arrives
(the first `ensure`, `remove` or owner update after a load), so a search that needs no catch-up never
builds them.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

Edge = tuple[int, int, float]  # (row, row, weight), each undirected edge once
OWNER_KINDS = ("fact", "passage", "entity")


def _empty_ints() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


class OwnedEdges:
    """Every owner's edges, by (kind, id): packed arrays (the state at the last `pack`) plus the owners set
    since then (a dict that wins over the packed entry of the same owner)."""

    def __init__(self) -> None:
        self._changed: dict[tuple[str, str], list[Edge]] = {}
        self._kinds = np.zeros(0, dtype=np.int8)  # per packed owner: its index in OWNER_KINDS
        self._ids: list[str] = []
        self._offsets = np.zeros(1, dtype=np.int64)  # owner i's edges: [offsets[i], offsets[i + 1])
        self._u, self._v, self._w = _empty_ints(), _empty_ints(), np.zeros(0, dtype=np.float64)
        self._position: dict[tuple[str, str], int] | None = None  # packed owner by key, built on first use

    def empty(self) -> bool:
        return not self._ids and not self._changed

    def _packed_position(self, key: tuple[str, str]) -> int | None:
        if self._position is None:
            keys = zip((OWNER_KINDS[k] for k in self._kinds.tolist()), self._ids, strict=True)
            self._position = dict(zip(keys, range(len(self._ids)), strict=True))
        return self._position.get(key)

    def get(self, key: tuple[str, str], default: list[Edge] | tuple = ()) -> list[Edge] | tuple:
        if key in self._changed:
            return self._changed[key]
        at = self._packed_position(key) if self._ids else None
        if at is None:
            return default
        a, b = int(self._offsets[at]), int(self._offsets[at + 1])
        return list(zip(self._u[a:b].tolist(), self._v[a:b].tolist(), self._w[a:b].tolist(), strict=True))

    def __setitem__(self, key: tuple[str, str], edges: list[Edge]) -> None:
        self._changed[key] = edges

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every owner's edges now, as (u, v, weight) arrays: the packed owners not set since, then the set."""
        keep = np.ones(len(self._ids), dtype=bool)
        if self._ids:
            for key in self._changed:
                at = self._packed_position(key)
                if at is not None:
                    keep[at] = False
        per_edge = np.repeat(keep, np.diff(self._offsets))
        changed = [e for edges in self._changed.values() for e in edges]
        extra = np.asarray(changed, dtype=np.float64).reshape(-1, 3)
        return (np.concatenate([self._u[per_edge], extra[:, 0].astype(np.int64)]),
                np.concatenate([self._v[per_edge], extra[:, 1].astype(np.int64)]),
                np.concatenate([self._w[per_edge], extra[:, 2]]))

    def pack(self) -> None:
        """Fold the owners set since into the arrays; owners without edges (deleted ones) go."""
        if not self._changed:
            return
        keep = np.ones(len(self._ids), dtype=bool)
        for key in self._changed:
            at = self._packed_position(key) if self._ids else None
            if at is not None:
                keep[at] = False
        counts = np.diff(self._offsets)
        per_edge = np.repeat(keep, counts)
        kept = np.flatnonzero(keep & (counts > 0))
        new = [(key, edges) for key, edges in self._changed.items() if edges]
        changed = np.asarray([e for _, edges in new for e in edges], dtype=np.float64).reshape(-1, 3)
        kept_counts = counts[kept]
        self._kinds = np.concatenate([self._kinds[kept],
                                      np.asarray([OWNER_KINDS.index(k) for (k, _), _ in new], dtype=np.int8)])
        self._ids = [self._ids[i] for i in kept.tolist()] + [node_id for (_, node_id), _ in new]
        sizes = np.concatenate([kept_counts, np.asarray([len(edges) for _, edges in new], dtype=np.int64)])
        self._offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self._u = np.concatenate([self._u[per_edge], changed[:, 0].astype(np.int64)])
        self._v = np.concatenate([self._v[per_edge], changed[:, 1].astype(np.int64)])
        self._w = np.concatenate([self._w[per_edge], changed[:, 2]])
        self._changed, self._position = {}, None

    def items(self) -> Iterator[tuple[tuple[str, str], list[Edge]]]:
        """Every owner with edges and its edges (tests and comparisons: not a hot path)."""
        self.pack()
        for i, node_id in enumerate(self._ids):
            yield (OWNER_KINDS[self._kinds[i]], node_id), self.get((OWNER_KINDS[self._kinds[i]], node_id))

    def __getstate__(self) -> dict:
        self.pack()  # a file holds arrays only
        return {k: v for k, v in self.__dict__.items() if k != "_position"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._position = None


class NodeRows:
    """(kind, id) -> row of the graph's live nodes: a dict, or after a load sorted id arrays per kind that
    answer lookups by binary search until the first change brings the dict back."""

    def __init__(self) -> None:
        self._row: dict[tuple[str, str], int] | None = {}
        self._sorted: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # kind -> (ids as utf-8, rows)

    def get(self, key: tuple[str, str]) -> int | None:
        if self._row is not None:
            return self._row.get(key)
        found = self._sorted.get(key[0])
        if found is None or not len(found[0]):
            return None
        ids, rows = found
        wanted = key[1].encode()
        at = int(np.searchsorted(ids, wanted))
        return int(rows[at]) if at < len(ids) and ids[at] == wanted else None

    def _dict(self) -> dict[tuple[str, str], int]:
        if self._row is None:
            self._row = {}
            for kind, (ids, rows) in self._sorted.items():
                self._row.update(zip(((kind, i.decode()) for i in ids.tolist()), rows.tolist(), strict=True))
            self._sorted = {}
        return self._row

    def __setitem__(self, key: tuple[str, str], row: int) -> None:
        self._dict()[key] = row

    def pop(self, key: tuple[str, str], default: int | None = None) -> int | None:
        return self._dict().pop(key, default)

    def __len__(self) -> int:
        return len(self._row) if self._row is not None else sum(len(ids) for ids, _ in self._sorted.values())

    def __getstate__(self) -> dict:
        if self._row is None:
            return {"_sorted": self._sorted}
        by_kind: dict[str, tuple[list[bytes], list[int]]] = {}
        for (kind, node_id), row in self._row.items():
            ids, rows = by_kind.setdefault(kind, ([], []))
            ids.append(node_id.encode())
            rows.append(row)
        packed = {}
        for kind, (ids, rows) in by_kind.items():
            # dtype object -> bytes of the longest id; searchsorted compares them as byte strings
            array = np.asarray(ids, dtype=bytes)
            order = np.argsort(array, kind="stable")
            packed[kind] = (array[order], np.asarray(rows, dtype=np.int64)[order])
        return {"_sorted": packed}

    def __setstate__(self, state: dict) -> None:
        self._row, self._sorted = None, state["_sorted"]
