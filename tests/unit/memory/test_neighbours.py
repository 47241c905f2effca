"""The in-process neighbour search answers as cypher/memory/entity_neighbors does, exactly."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph_neo4j.memory.neighbours import EntityVectors, ExactEntityLookup, IvfVectors
from memgraph_neo4j.repository.entities import Neighbor, VectorQuery


def reference(ids, types, matrix, queries, fetch, min_cosine):
    """The statement's semantics by brute force: top `fetch` (ties to the lower id), less the query's own
    id, cosine >= min_cosine, ordered by query id, cosine descending, neighbour."""
    unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    out = []
    for q in queries:
        v = np.asarray(q.vector, dtype=np.float32)
        scores = unit @ (v / np.linalg.norm(v))
        top = sorted(range(len(ids)), key=lambda j: (-scores[j], ids[j]))[:fetch]
        out += [Neighbor(q.id, ids[j], types[j], float(scores[j])) for j in top
                if ids[j] != q.id and scores[j] >= min_cosine]
    return sorted(out, key=lambda n: (n.id, -n.cosine, n.neighbor))


@pytest.mark.parametrize("fetch,min_cosine", [(3, -1.0), (5, 0.2), (40, 0.0), (1, 0.5)])
def test_neighbours_equal_the_statement_semantics(fetch, min_cosine):
    rng = np.random.default_rng(7)
    ids = [f"e{i:03d}" for i in rng.permutation(60)]
    types = [("Person", "Place")[i % 2] for i in range(60)]
    matrix = rng.standard_normal((60, 8)).astype(np.float32)
    vectors = EntityVectors()
    for start in range(0, 60, 7):  # added in several batches: the buffer grows
        vectors.add(ids[start:start + 7], types[start:start + 7], matrix[start:start + 7].tolist())
    queries = [VectorQuery(f"key:{i}", rng.standard_normal(8).tolist()) for i in range(9)]
    queries.append(VectorQuery(ids[4], matrix[4].tolist()))  # a stored entity's own id is left out
    found = vectors.neighbors(queries, fetch, min_cosine)
    expected = reference(ids, types, matrix, queries, fetch, min_cosine)
    assert [(n.id, n.neighbor, n.type) for n in found] == [(n.id, n.neighbor, n.type) for n in expected]
    assert np.allclose([n.cosine for n in found], [n.cosine for n in expected], atol=1e-6)
    assert all(n.neighbor != ids[4] for n in found if n.id == ids[4])


def test_ties_at_the_fetch_cut_go_to_the_lower_id():
    vectors = EntityVectors()
    vectors.add(["c", "a", "b"], ["T", "T", "T"], [[1.0, 0.0]] * 3)  # three equal vectors
    found = vectors.neighbors([VectorQuery("q", [1.0, 0.0])], fetch=2, min_cosine=0.5)
    assert [n.neighbor for n in found] == ["a", "b"]


class CountingRepository:
    """The repository calls the lookup makes, over a list of entities another writer may change."""

    def __init__(self, rows):
        self.rows, self.reads = rows, []

    def entity_count(self):  # entities with a vector, as cypher/memory/entity_count counts them
        self.reads.append("count")
        return sum(r[2] is not None for r in self.rows)

    def entity_vector_pages(self, page: int = 2):  # pages of two: a copy is read over several
        self.reads.append("vectors")
        rows = [r for r in self.rows if r[2] is not None]
        for start in range(0, len(rows), page):
            part = rows[start : start + page]
            yield [r[0] for r in part], [r[1] for r in part], [r[2] for r in part]

    def entity_neighbors(self, rows, fetch, min_cosine):
        self.reads.append("index")
        return []


def test_the_copy_follows_created_entities_and_reloads_after_another_writer():
    repo = CountingRepository([("a", "T", [1.0, 0.0]), ("n", "T", None)])
    lookup = ExactEntityLookup(repo, max_vectors=10)
    query = [VectorQuery("key:x", [1.0, 0.1])]
    assert [n.neighbor for n in lookup.entity_neighbors(query, 5, 0.5)] == ["a"]
    repo.rows.append(("b", "T", [0.6, 0.8]))  # this writer's batch committed b
    lookup.vectors.written(["b", "a"], ["T", "T"], [[0.6, 0.8], [1.0, 0.0]])  # a: held already
    assert [n.neighbor for n in lookup.entity_neighbors(query, 5, 0.5)] == ["a", "b"]
    assert repo.reads == ["count", "vectors", "count"]  # b came without a read
    repo.rows.append(("c", "T", [1.0, 0.05]))  # another writer
    assert [n.neighbor for n in lookup.entity_neighbors(query, 5, 0.5)] == ["c", "a", "b"]
    assert lookup.vectors.loads == 2


def test_a_space_over_the_limit_uses_the_index_from_then_on_without_the_approximate_copy():
    repo = CountingRepository([(f"e{i}", "T", [1.0, float(i)]) for i in range(3)])
    lookup = ExactEntityLookup(repo, max_vectors=2, approximate=False)
    lookup.entity_neighbors([VectorQuery("key:x", [1.0, 0.0])], 5, 0.5)
    lookup.entity_neighbors([VectorQuery("key:x", [1.0, 0.0])], 5, 0.5)
    assert repo.reads == ["count", "index", "index"] and lookup.vectors.loads == 0
    off = CountingRepository([("a", "T", [1.0, 0.0])])
    ExactEntityLookup(off, max_vectors=0).entity_neighbors([VectorQuery("key:x", [1.0, 0.0])], 5, 0.5)
    assert off.reads == ["index"]


def test_an_id_written_twice_in_one_batch_is_one_row_and_needs_no_read():
    repo = CountingRepository([("a", "T", [1.0, 0.0])])
    lookup = ExactEntityLookup(repo, max_vectors=10)
    query = [VectorQuery("key:x", [1.0, 0.1])]
    lookup.entity_neighbors(query, 5, 0.5)
    repo.rows.append(("f", "T", [0.6, 0.8]))  # one fact two passages of the batch state
    lookup.vectors.written(["f", "f"], [None, None], [[0.6, 0.8], [0.6, 0.8]])
    assert [n.neighbor for n in lookup.entity_neighbors(query, 5, 0.5)] == ["a", "f"]
    assert lookup.vectors.loads == 1 and repo.reads == ["count", "vectors", "count"]


def test_the_inverted_file_copy_with_every_cell_probed_is_the_exact_search():
    rng = np.random.default_rng(3)
    ids = [f"e{i:03d}" for i in range(400)]
    types = [("Person", "Place")[i % 2] for i in range(400)]
    matrix = rng.standard_normal((400, 8)).astype(np.float32)
    exact = EntityVectors()
    exact.add(ids[:300], types[:300], matrix[:300].tolist())
    ivf = IvfVectors.of(exact, nprobe=1000)  # learnt from 300 rows, every cell probed
    assert ivf.cells == 4 and len(ivf) == 300  # 8 cells would leave fewer than 39 training rows each
    for copy in (exact, ivf):
        copy.add(ids[300:], types[300:], matrix[300:].tolist())  # later rows are only assigned to cells
    queries = [VectorQuery(f"key:{i}", rng.standard_normal(8).tolist()) for i in range(20)]
    for fetch, min_cosine in [(5, 0.2), (30, -1.0)]:
        found, expected = ivf.neighbors(queries, fetch, min_cosine), exact.neighbors(queries, fetch, min_cosine)
        assert [(n.id, n.neighbor, n.type) for n in found] == [(n.id, n.neighbor, n.type) for n in expected]
        assert np.allclose([n.cosine for n in found], [n.cosine for n in expected], atol=1e-5)
    near, expected = ivf.similar(ids[::37], 10, 0.3), exact.similar(ids[::37], 10, 0.3)
    assert near.keys() == expected.keys() and len(near) == 11
    assert {k: [i for i, _ in v] for k, v in near.items()} == {k: [i for i, _ in v] for k, v in expected.items()}


def test_the_inverted_file_copy_finds_near_duplicates_probing_few_cells():
    rng = np.random.default_rng(5)
    base = rng.standard_normal((3000, 32)).astype(np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    twins = base[:300] + 0.4 * rng.standard_normal((300, 32)).astype(np.float32) / np.sqrt(32)  # cosine 0.87-0.97
    ids = [f"b{i}" for i in range(3000)] + [f"t{i}" for i in range(300)]
    exact = EntityVectors()
    exact.add(ids, ["T"] * 3300, np.vstack([base, twins]).tolist())
    ivf = IvfVectors.of(exact)  # 64 cells, 16 probed
    assert ivf.cells == 64
    near = ivf.similar([f"t{i}" for i in range(300)], 5, 0.8)
    found = sum(f"b{i}" in [n for n, _ in near.get(f"t{i}", [])] for i in range(300))
    assert found >= 297  # all 300 with 16 cells probed; one cell finds 265, four 294


def test_a_space_over_the_limit_gets_the_inverted_file_copy_and_keeps_it():
    repo = CountingRepository([(f"e{i}", "T", [1.0, float(i)]) for i in range(3)])
    lookup = ExactEntityLookup(repo, max_vectors=2, build_seconds_per_vector=0)  # built at once
    query = [VectorQuery("key:x", [1.0, 2.0])]
    assert [n.neighbor for n in lookup.entity_neighbors(query, 1, 0.5)] == ["e2"]
    assert isinstance(lookup.vectors.current(), IvfVectors) and lookup.vectors.loads == 1
    repo.rows.append(("e9", "T", [1.0, 2.1]))  # this writer's batch
    lookup.vectors.written(["e9"], ["T"], [[1.0, 2.1]])
    assert [n.neighbor for n in lookup.entity_neighbors(query, 2, 0.5)] == ["e2", "e9"]
    assert "index" not in repo.reads and lookup.vectors.loads == 1


def test_over_the_limit_the_index_answers_until_it_has_cost_what_the_copy_would():
    """A fresh writer above the cap: no copy is read and trained for its first questions (311-389 s at
    100k passages, for a one-message write); the index answers, counted once, and its seconds add up. Once
    they reach the copy's estimated cost (vectors x seconds per vector), the copy is built and kept."""
    repo = CountingRepository([(f"e{i}", "T", [1.0, float(i)]) for i in range(3)])
    lookup = ExactEntityLookup(repo, max_vectors=2, build_seconds_per_vector=1.0)  # a copy of 3: "3 s"
    query = [VectorQuery("key:x", [1.0, 2.0])]
    for _ in range(3):
        assert lookup.entity_neighbors(query, 1, 0.5) == []  # the repository's index finds nothing here
    assert repo.reads == ["count", "index", "index", "index"] and lookup.vectors.loads == 0
    assert 0 < lookup.vectors.index_seconds < 3.0
    lookup.vectors.index_served(3.0)  # the index has now cost more than the copy would
    assert [n.neighbor for n in lookup.entity_neighbors(query, 1, 0.5)] == ["e2"]
    assert isinstance(lookup.vectors.current(), IvfVectors) and lookup.vectors.loads == 1
    assert repo.reads[4:] == ["count", "vectors", "count"]  # no version known here: each use counts
    lookup.vectors.invalidate()  # another writer: read again at once, the index has been paid for
    assert [n.neighbor for n in lookup.entity_neighbors(query, 1, 0.5)] == ["e2"] and lookup.vectors.loads == 2
