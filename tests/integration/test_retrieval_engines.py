"""The one-shot engines (GDS PageRank, Neo4j indexes: what `memgraph-neo4j query` uses) and the local
ones (a long-lived MemoryGraph) compute the same memgraphrag scores, and other spaces move neither.

Before, they ordered the top 5 of 7 of 30 MuSiQue questions differently: the fusion's BM25 came from
Lucene (every space's IDF and lengths), GDS handed the fusion 20 passages instead of 100 and the PageRank
mass of the few nodes it resolved, and GDS's PageRank cuts deltas below the tolerance, which the local
iteration did not (0.2 % of the passages' mass). What is left is the vector search: the indexes score in
float32 (within 2.4e-7 of the exact cosine) and are approximate on spaces too large to search exactly.
"""

from __future__ import annotations

import uuid

import pytest
from test_isolation import OTHER_FIRST, QUESTIONS, corpus
from test_retrieval import drop_graphs

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.retrieval import RetrievalContext, make_retriever

# what the one-shot CLI runs (cli/query_cmd.py ONE_SHOT, seed statistics read per query)
ONE_SHOT = {"ppr_engine": "gds", "layer_search": "index", "snapshot_max_mentions": 0}
BOUND = 1e-6  # float32 vector scores (2.4e-7) reach the fused scores through the seeds
METHODS = ("memgraphrag", "hipporag2", "bm25")


def build(store, space: str, minilm, documents) -> None:
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline", retrieval=RetrievalConfig())
    memory.ingest(documents, batch_size=8, progress=False)
    memory.close()


@pytest.fixture(scope="module")
def spaces(store, minilm):
    names = {key: f"t_eng{key}_{uuid.uuid4().hex[:8]}" for key in "ab"}
    build(store, names["a"], minilm, corpus())
    yield names
    for name in names.values():
        store.run_implicit("admin/delete_space", space=name)
        drop_graphs(store, name)


def results(store, space: str, minilm, **options) -> dict:
    context = RetrievalContext(store, space, minilm, RetrievalConfig(**options))
    try:
        return {(m, q): make_retriever(m, context).search(q, top_k=5, top_m=5) for m in METHODS for q in QUESTIONS}
    finally:
        context.close()


def assert_same(got: dict, expected: dict, bound: float = BOUND) -> None:
    for key, result in expected.items():
        other = got[key]
        assert [h.id for h in other.passages] == [h.id for h in result.passages], key
        assert [h.id for h in other.entities] == [h.id for h in result.entities], key
        for x, y in zip(other.passages + other.entities, result.passages + result.entities, strict=True):
            assert x.score == pytest.approx(y.score, abs=bound), (key, x.id)


def test_one_shot_engines_score_as_the_local_ones(store, minilm, spaces):
    one_shot = results(store, spaces["a"], minilm, **ONE_SHOT)
    assert not any(r.fallback for (m, _), r in one_shot.items() if m != "bm25")  # the graph ranked them
    assert_same(one_shot, results(store, spaces["a"], minilm))
    # each stage alone: GDS PageRank on the exact layers scores as the local engine to rounding
    assert_same(results(store, spaces["a"], minilm, ppr_engine="gds"), results(store, spaces["a"], minilm), 1e-12)


def test_other_spaces_move_no_one_shot_score(store, minilm, spaces):
    alone = results(store, spaces["a"], minilm, **ONE_SHOT)
    build(store, spaces["b"], minilm, corpus(OTHER_FIRST, missions=21))  # look-alike names, the same words
    assert_same(results(store, spaces["a"], minilm, **ONE_SHOT), alone)
    store.run_implicit("admin/delete_space", space=spaces["b"])
    drop_graphs(store, spaces["b"])
    assert_same(results(store, spaces["a"], minilm, **ONE_SHOT), alone)
