"""Exact nearest stored entities for ingest, in process: entity resolution and bridging ask for the
neighbours of every new name of a batch, and on the server each of those is one filtered HNSW search.

Measured on the 2 cores (MuSiQue x 3, 29k entity vectors, loaded machine): 13-14 ms per query
through `entity_embedding_by_space`, so ~2,000 names of a 256-passage batch spent ~30 s in one read;
a float32 matrix product over the same vectors takes well under 1 ms per query, and it is exact
where HNSW can miss a neighbour. The copy is read once (cypher/memory/entity_vectors), grows with the
entities each batch creates, and is checked against the space's entity count before every use (a
retraction or another writer in between makes it reload). Spaces with more than `max_vectors`
entities get an inverted-file copy instead (IvfVectors: a product per query costs more there than an
approximate search), or, with `approximate` off, are searched through the server's index.
Adjudication's candidates by meaning use a copy of the fact vectors the same way
(adjudication/similar.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from memgraph_neo4j.repository.entities import AliasHit, EntityRepository, EvidenceQuery, Neighbor, VectorQuery

_BLOCK_FLOATS = 1 << 24  # scores held at once per block of queries (64 MB of float32)
# What an inverted-file copy costs to build, per vector: a fresh process's first write at 100k passages
# read and trained its two copies (1.9M entity and fact vectors) in 311-389 s, for a one-message write
# that asks the server's index ~10 questions of 10-15 ms. Above the cap the index answers until its
# answers have cost what the copy would (ski rental: never more than twice the cheaper of the two).
BUILD_SECONDS_PER_VECTOR = 180e-6


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


class EntityVectors:
    """A space's entity (or fact) vectors as unit float32 rows (ids in the order added), searched exactly."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.types: list[str | None] = []
        self.row_of: dict[str, int] = {}
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
        self.row_of.update((node_id, self._rows + i) for i, node_id in enumerate(ids))
        self._rows += len(ids)
        self.ids += ids
        self.types += types

    def remove(self, ids: Sequence[str]) -> None:
        """The rows of these ids go (unknown ids are ignored); the others keep their order."""
        gone = {self.row_of[i] for i in ids if i in self.row_of}
        if not gone:
            return
        keep = [r for r in range(self._rows) if r not in gone]
        self._matrix = self._matrix[np.asarray(keep, dtype=np.int64)]
        self.ids, self.types = [self.ids[r] for r in keep], [self.types[r] for r in keep]
        self._rows = len(keep)
        self.row_of = {node_id: r for r, node_id in enumerate(self.ids)}

    def neighbors(self, queries: Sequence[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]:
        """What cypher/memory/entity_neighbors returns, exactly: per query the `fetch` nearest (ties to
        the lower id), less the query's own id, those at cosine >= min_cosine; ordered by query id,
        cosine descending, neighbour id."""
        if not queries or not self._rows:
            return []
        vectors = np.asarray([q.vector for q in queries], dtype=np.float32).reshape(len(queries), -1)
        found = [Neighbor(query.id, self.ids[j], self.types[j], cosine)
                 for query, near in zip(queries, self._nearest(_unit(vectors), fetch, min_cosine), strict=True)
                 for j, cosine in near if self.ids[j] != query.id]
        found.sort(key=lambda n: (n.id, -n.cosine, n.neighbor))
        return found

    def similar(self, ids: Sequence[str], fetch: int, min_cosine: float) -> dict[str, list[tuple[str, float]]]:
        """Per stored id: the other rows among its `fetch` nearest with cosine >= min_cosine, best first
        (ties to the lower id); ids not held (no vector) are left out."""
        held = [i for i in ids if i in self.row_of]
        if not held:  # held rows: the copy has rows
            return {}
        vectors = self.stored([self.row_of[i] for i in held])
        return {node_id: [(self.ids[j], cosine) for j, cosine in near if self.ids[j] != node_id]
                for node_id, near in zip(held, self._nearest(vectors, fetch, min_cosine), strict=True)}

    def stored(self, rows: list[int]) -> np.ndarray:
        """The unit float32 vectors the copy holds at `rows`."""
        return self._matrix[rows]

    def _nearest(self, vectors: np.ndarray, fetch: int, min_cosine: float) -> list[list[tuple[int, float]]]:
        """Per unit query row: (row, cosine) of the `fetch` best at cosine >= min_cosine, best first."""
        matrix = self._matrix[: self._rows]
        block = max(1, _BLOCK_FLOATS // self._rows)
        out: list[list[tuple[int, float]]] = []
        for start in range(0, len(vectors), block):
            for row in vectors[start : start + block] @ matrix.T:
                near = sorted(np.flatnonzero(row >= min_cosine), key=lambda j: (-row[j], self.ids[j]))
                out.append([(int(j), float(row[j])) for j in near[:fetch]])  # the index's top-`fetch` cut
        return out


class IvfVectors(EntityVectors):
    """Above the exact copy's cap: the same rows in an inverted-file index in process (faiss IndexIVFFlat,
    inner product on unit rows), searched in the `nprobe` cells nearest each query. Approximate, as the
    server's HNSW index is, and ~20x cheaper per query than either at size. Measured on the 2 cores with
    987k entity vectors (MuSiQue's 18k and turned copies, loaded machine): the exact product 14.8 ms per
    query, 4,096 cells probed 16 at a time 0.71 ms; on MuSiQue's own vectors 16 of 256 cells found 98.7 %
    of the entity pairs at cosine >= 0.8 (bridging's top 10) and 99.9 % of the fact pairs at >= 0.9.
    The cells are learnt once from the rows it starts with; later rows are only assigned to them."""

    def __init__(self, matrix: np.ndarray, ids: list[str], types: list[str | None], nprobe: int = 16,
                 cells: int | None = None) -> None:
        import faiss  # only spaces above the cap need it

        super().__init__()
        dimension = matrix.shape[1]
        # cells: ~4 sqrt(N), a power of two (faiss's guidance is 4-16 sqrt(N)), >= 39 training rows each.
        # Each process trains its copy when it first needs it, and k-means costs ~cells^2: at 554k vectors
        # (bench_ivf_scale, results/ivf_cells.json) 4,096 cells trained in 114 s against 612 s for 8,192,
        # for 0.319 against 0.276 ms a query: 8,192 pays back after ~11M queries, more than a whole
        # 100k-passage ingest asks (~2-4M); fewer cells probed 16 at a time also scan more of the rows
        cells = cells or 2 ** round(np.log2(max(1.0, 4 * np.sqrt(len(matrix)))))
        while cells > 1 and cells * 39 > len(matrix):
            cells //= 2
        self._index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dimension), dimension, cells, faiss.METRIC_INNER_PRODUCT)
        step = max(1, len(matrix) // (cells * 40))  # an even sample: k-means needs ~40 rows per cell
        self._index.train(np.ascontiguousarray(matrix[::step]))
        self._index.make_direct_map()  # rows by number, for `similar`
        self._index.nprobe = min(nprobe, cells)
        self.cells = cells
        self.add(ids, types, matrix)

    @classmethod
    def of(cls, copy: EntityVectors, nprobe: int = 16, cells: int | None = None) -> IvfVectors:
        return cls(copy._matrix[: len(copy)], list(copy.ids), list(copy.types), nprobe, cells)

    def add(self, ids: Sequence[str], types: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        if not len(ids):
            return
        self._index.add(np.ascontiguousarray(_unit(np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1))))
        self.row_of.update((node_id, self._rows + i) for i, node_id in enumerate(ids))
        self._rows += len(ids)
        self.ids += ids
        self.types += types

    def stored(self, rows: list[int]) -> np.ndarray:
        """The unit float32 vectors the copy holds at `rows` (flat codes: exact)."""
        return self._index.reconstruct_batch(np.asarray(rows, dtype=np.int64))

    def _nearest(self, vectors: np.ndarray, fetch: int, min_cosine: float) -> list[list[tuple[int, float]]]:
        scores, rows = self._index.search(np.ascontiguousarray(vectors, dtype=np.float32), fetch)
        out = []
        for row_scores, row_ids in zip(scores, rows):
            near = [(int(j), float(c)) for j, c in zip(row_ids, row_scores) if j >= 0 and c >= min_cosine]
            out.append(sorted(near, key=lambda jc: (-jc[1], self.ids[jc[0]])))
        return out


class SpaceVectors:
    """The in-process copy of one kind of a space's vectors (entities, facts), kept in step with the
    writer: read once, then each committed batch adds what it wrote. Before every use the copy is
    checked: with `version` (the memory version now), a copy that holds the version the space is at is
    used as it is, one read of the MemoryState node (~2 ms); otherwise the space's count of such vectors
    must equal the copy's, else it is read again (a retraction or another writer changed the space). The
    count cost 40-85 ms per write on MuSiQue (17k facts, 18k entities), 0.5-1.5 s at 267k facts.
    Above `max_vectors` the copy becomes an IvfVectors (`approximate`), or None: then the caller asks the
    server's index, from then on (an ingest only grows the space). `max_vectors` <= 0: no copy at all.
    Before an IvfVectors is first built, None too: the index answers (its callers report the seconds it
    took, `index_served`) until those answers have cost what building the copy would, at
    `build_seconds_per_vector` (0: at once)."""

    def __init__(self, read: Callable[[], Iterable[tuple[list[str], list[str | None], list[list[float]]]]],
                 count: Callable[[], int], max_vectors: int, approximate: bool = True,
                 version: Callable[[], int] | None = None,
                 build_seconds_per_vector: float = BUILD_SECONDS_PER_VECTOR) -> None:
        self._read, self._count, self.max_vectors, self.approximate = read, count, max_vectors, approximate
        self._version = version
        self._copy: EntityVectors | None = None
        self._at: int | None = None  # the memory version the copy is known to hold (None: not known)
        self._too_large = max_vectors <= 0
        self.build_seconds_per_vector = build_seconds_per_vector
        self._above: int | None = None  # vectors counted over the cap while no copy is built yet
        self.index_seconds = 0.0  # what the server's index has answered in, while there was no copy
        self.loads = 0  # observable: tests assert when the copy is read again
        self.counts = 0  # ... and when it was checked by counting the space

    def _renting(self, count: int | None) -> bool:
        """Above the cap with no copy, and the index's answers have not yet cost what the copy would."""
        return (count is not None and count > self.max_vectors and self._copy is None
                and self.index_seconds < count * self.build_seconds_per_vector)

    def space_count(self) -> int:
        """The space's vectors of this kind now (one count query; the cap is compared with it)."""
        return self._count()

    def index_served(self, seconds: float) -> None:
        """The caller asked the server's index for what `current()` None left to it, in `seconds`."""
        self.index_seconds += seconds

    def current(self) -> EntityVectors | None:
        if self._too_large or self._renting(self._above):
            return None
        now = self._version() if self._version is not None else None
        if (now is not None and now == self._at and self._copy is not None
                and (len(self._copy) <= self.max_vectors or isinstance(self._copy, IvfVectors))):
            return self._copy
        count = self._count()
        self.counts += 1
        if count > self.max_vectors and not self.approximate:
            self._too_large, self._copy = True, None
            return None
        if self._renting(count):  # counted once: the space only grows past the cap meanwhile
            self._above = count
            return None
        if self._copy is None or count != len(self._copy):
            self._copy = EntityVectors()
            for page in self._read():  # pages (repository/base.py): Python holds one page of floats at a time
                self._copy.add(*page)
            self.loads += 1
        if count > self.max_vectors and not isinstance(self._copy, IvfVectors):
            self._copy = IvfVectors.of(self._copy)
        # read before the count: a write that committed in between leaves the copy a version behind
        # the space, and the next use counts again
        self._at = now
        return self._copy

    def written(self, ids: Sequence[str], types: Sequence[str | None],
                vectors: Sequence[Sequence[float] | None], version: int | None = None) -> None:
        """What a committed batch wrote; rows the copy holds already, repeats and rows without a vector are
        skipped (a repeat counted twice made every later check see another writer and read the copy again).
        `version`: the memory version the batch's commit made (see `advanced`)."""
        if self._copy is None:
            return
        kept, seen = [], set()
        for i, vector in enumerate(vectors):  # an id twice in one batch (a fact two passages state) is one row
            if vector is not None and ids[i] not in self._copy.row_of and ids[i] not in seen:
                kept.append(i)
                seen.add(ids[i])
        self._copy.add([ids[i] for i in kept], [types[i] for i in kept], [vectors[i] for i in kept])
        self.advanced(version)

    def advanced(self, version: int | None) -> None:
        """A write of this process committed `version` and the copy holds what it wrote of this kind (all
        of it, or nothing was of this kind). Only the very next version moves the copy on: any other
        version means another write committed in between, and the next use counts the space."""
        if version is not None and self._at is not None and version == self._at + 1:
            self._at = version

    def holds(self, version: int | None) -> bool:
        """The copy is known to hold the space at `version`."""
        return version is not None and self._copy is not None and self._at == version

    def held(self, ids: Sequence[str], version: int | None) -> dict[str, list[float]]:
        """The vectors the copy holds of `ids` (unit float32 rows), when it is known to hold the space at
        `version`; else none."""
        rows = [i for i in ids if i in self._copy.row_of] if self.holds(version) else []
        if not rows:
            return {}
        return dict(zip(rows, self._copy.stored([self._copy.row_of[i] for i in rows]).tolist()))

    def moved(self, since: int | None, version: int | None, removed: Sequence[str] | None = ()) -> None:
        """A retraction of this process took the space from `since` to `version` under the space's lease,
        deleting `removed` of this kind and changing no other vector of it: a copy at `since` drops those
        rows and holds `version` (an inverted-file copy, or `removed` None: not all known, is read again).
        Saves the first write after a retraction its count and read of the space (~3 s on MuSiQue)."""
        if version is None or not self.holds(since):
            return
        if removed is None or (removed and isinstance(self._copy, IvfVectors)):
            self.invalidate()
            return
        self._copy.remove(removed)
        self._at = version

    def invalidate(self) -> None:
        """Another writer changed the space under this batch: read the copy again before the next use."""
        self._copy, self._at = None, None


class ExactEntityLookup:
    """Resolution's view of the stored entities (memory/resolve.EntityLookup) for a writer: names
    by their key or Alias nodes as before, neighbours from the in-process copy of the space's vectors."""

    def __init__(self, repository: EntityRepository, max_vectors: int, approximate: bool = True,
                 version: Callable[[], int] | None = None,
                 build_seconds_per_vector: float = BUILD_SECONDS_PER_VECTOR) -> None:
        self.repository = repository
        self.vectors = SpaceVectors(repository.entity_vector_pages, repository.entity_count, max_vectors, approximate,
                                    version, build_seconds_per_vector)

    def lookup_aliases(self, keys: list[str]) -> list[AliasHit]:
        return self.repository.lookup_aliases(keys)

    def entity_names(self, ids: list[str]) -> dict[str, str]:
        return self.repository.entity_names(ids)

    def merge_evidence(self, queries: list[EvidenceQuery]) -> dict[tuple[str, str], str]:
        return self.repository.merge_evidence(queries)

    def entity_neighbors(self, rows: list[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]:
        copy = self.vectors.current()
        if copy is None:
            began = time.perf_counter()
            found = self.repository.entity_neighbors(rows, fetch, min_cosine)
            self.vectors.index_served(time.perf_counter() - began)
            return found
        return copy.neighbors(rows, fetch, min_cosine)
