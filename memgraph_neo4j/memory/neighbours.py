"""Exact nearest stored entities for ingest, in process: entity resolution and bridging ask for the
neighbours of every new name of a batch, and on the server each of those is one filtered HNSW search.

Measured on the 2 cores (MuSiQue x 3, 29k entity vectors, loaded machine): 13-14 ms per query
through `entity_embedding_by_space`, so ~2,000 names of a 256-passage batch spent ~30 s in one read;
a float32 matrix product over the same vectors takes well under 1 ms per query, and it is exact
where HNSW can miss a neighbour. The copy is read once (cypher/memory/entity_vectors), grows with the
entities each batch creates, and is checked against the space's entity count before every use (a
retraction or another writer in between makes it reload). Spaces with more than `max_vectors`
entities are searched through the index: there a product per query costs more than the search.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memgraph_neo4j.repository.entities import AliasHit, EntityRepository, Neighbor, VectorQuery

_BLOCK_FLOATS = 1 << 24  # scores held at once per block of queries (64 MB of float32)


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


class EntityVectors:
    """A space's entity vectors as unit float32 rows (ids in the order added), searched exactly."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.types: list[str] = []
        self._matrix: np.ndarray | None = None  # rows beyond _rows are spare capacity
        self._rows = 0

    def __len__(self) -> int:
        return self._rows

    def add(self, ids: Sequence[str], types: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        if not ids:
            return
        block = _unit(np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1))
        if self._matrix is None:
            self._matrix = np.zeros((0, block.shape[1]), dtype=np.float32)
        if self._rows + len(ids) > len(self._matrix):  # capacity doubles: appends stay O(1) amortised
            grown = np.zeros((max(2 * len(self._matrix), self._rows + len(ids)), block.shape[1]), np.float32)
            grown[: self._rows] = self._matrix[: self._rows]
            self._matrix = grown
        self._matrix[self._rows : self._rows + len(ids)] = block
        self._rows += len(ids)
        self.ids += ids
        self.types += types

    def neighbors(self, queries: Sequence[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]:
        """What cypher/memory/entity_neighbors returns, exactly: per query the `fetch` nearest (ties to
        the lower id), less the query's own id, those at cosine >= min_cosine; ordered by query id,
        cosine descending, neighbour id."""
        if not queries or not self._rows or self._matrix is None:
            return []
        matrix = self._matrix[: self._rows]
        vectors = _unit(np.asarray([q.vector for q in queries], dtype=np.float32).reshape(len(queries), -1))
        block = max(1, _BLOCK_FLOATS // self._rows)
        found: list[Neighbor] = []
        for start in range(0, len(queries), block):
            scores = vectors[start : start + block] @ matrix.T
            for offset, row in enumerate(scores):
                query = queries[start + offset]
                near = np.flatnonzero(row >= min_cosine)
                if len(near) > fetch:  # only the `fetch` best pass, as in the index search
                    near = sorted(near, key=lambda j: (-row[j], self.ids[j]))[:fetch]
                found += [Neighbor(query.id, self.ids[j], self.types[j], float(row[j])) for j in near
                          if self.ids[j] != query.id]
        found.sort(key=lambda n: (n.id, -n.cosine, n.neighbor))
        return found


class ExactEntityLookup:
    """Resolution's view of the stored entities (memory/resolve.EntityLookup) for a writer: names
    through their Alias nodes as before, neighbours from an in-process copy of the space's vectors."""

    def __init__(self, repository: EntityRepository, max_vectors: int) -> None:
        self.repository, self.max_vectors = repository, max_vectors
        self._copy: EntityVectors | None = None
        self._expected = -1  # entities of the space the copy stands for (with or without a vector)
        self._too_large = max_vectors <= 0
        self.loads = 0  # observable: tests assert when the copy is read again

    def lookup_aliases(self, keys: list[str]) -> list[AliasHit]:
        return self.repository.lookup_aliases(keys)

    def entity_neighbors(self, rows: list[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]:
        copy = self._current()
        if copy is None:
            return self.repository.entity_neighbors(rows, fetch, min_cosine)
        return copy.neighbors(rows, fetch, min_cosine)

    def created(self, ids: Sequence[str], types: Sequence[str], vectors: Sequence[Sequence[float] | None]) -> None:
        """The entities a committed batch created (the copy follows the space without a read)."""
        if self._copy is None:
            return
        kept = [i for i, v in enumerate(vectors) if v is not None]
        self._copy.add([ids[i] for i in kept], [types[i] for i in kept], [vectors[i] for i in kept])
        self._expected += len(ids)

    def invalidate(self) -> None:
        """Another writer changed the space under this batch: read the copy again before the next use."""
        self._copy, self._expected = None, -1

    def _current(self) -> EntityVectors | None:
        if self._too_large:
            return None
        count = self.repository.entity_count()
        if count > self.max_vectors:  # an ingest only grows the space: the index from now on
            self._too_large, self._copy = True, None
            return None
        if self._copy is None or count != self._expected:
            ids, types, vectors = self.repository.entity_vectors()
            kept = [i for i, v in enumerate(vectors) if v is not None]
            self._copy = EntityVectors()
            self._copy.add([ids[i] for i in kept], [types[i] for i in kept], [vectors[i] for i in kept])
            self._expected = len(ids)
            self.loads += 1
        return self._copy
