"""Retrieval on a small memory: methods, the PPR call against a numpy reference, projection reuse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.layers import LayerRepository
from memgraph_neo4j.repository.projections import ProjectionRepository
from memgraph_neo4j.retrieval import RetrievalContext, make_retriever
from memgraph_neo4j.retrieval.projection import space_prefix

SCRIPT = {
    "CURIE": [("Marie Curie", "born in", "Warsaw", "Person", "Place"),
              ("Marie Curie", "award received", "Nobel Prize in Physics", "Person", "Award")],
    "TURING": [("Alan Turing", "born in", "London", "Person", "Place"),
               ("Alan Turing", "employed by", "University of Manchester", "Person", "Organization")],
    "WARSAW": [("Warsaw", "capital of", "Poland", "Place", "Place")],
    "HOPPER": [("Grace Hopper", "born in", "New York City", "Person", "Place")],
}
TEXTS = {
    "CURIE": "CURIE Marie Curie was born in Warsaw and received the Nobel Prize in Physics.",
    "TURING": "TURING Alan Turing was born in London and worked at the University of Manchester.",
    "WARSAW": "WARSAW Warsaw is the capital of Poland, on the Vistula river.",
    "HOPPER": "HOPPER Grace Hopper was born in New York City and developed COBOL.",
}


@pytest.fixture(scope="module")
def ontology():
    base = load_ontology()
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1, "percentile": None})})


@pytest.fixture
def memory(store, space, minilm, ontology):
    m = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm,
                    extractor=ScriptedExtractor(SCRIPT), retrieval=reference())
    m.ingest([Document(title=k.title(), text=v) for k, v in TEXTS.items() if k != "HOPPER"], progress=False)
    yield m
    drop_graphs(store, space)


# The configuration these tests compare against: GDS PageRank over the index layers, no fusion (the
# engines and layer searches must agree exactly there; the fusion has its own tests below).
REFERENCE = {"ppr_engine": "gds", "layer_search": "index", "fusion": "none"}


def reference(**options) -> RetrievalConfig:
    return RetrievalConfig(**{**REFERENCE, **options})


class Session:
    """One RetrievalContext and its retrievers, as a MemoryGraph holds them."""

    def __init__(self, store, space, embedder, config: RetrievalConfig) -> None:
        self.context = RetrievalContext(store, space, embedder, config)

    def search(self, question: str, method: str = "memgraphrag", **options):
        return make_retriever(method, self.context).search(question, **options)


def graphs(store, space) -> list[str]:
    """The space's GDS projections (every version and configuration)."""
    return list(LayerRepository(store, space).state(space_prefix(space)).graphs)


def drop_graphs(store, space) -> None:
    for graph in graphs(store, space):
        store.write("admin/drop_graph", name=graph)


def test_dense_and_bm25(memory):
    dense = memory.search("Where was Alan Turing born?", method="dense", top_k=1)
    assert dense.passages[0].name == "Turing" and "embed" in dense.timings_ms
    bm25 = memory.search("capital of Poland", method="bm25", top_k=1)
    assert bm25.passages[0].name == "Warsaw"


def test_memgraphrag_reaches_the_second_hop(memory):
    result = memory.search("In which country was Marie Curie born?", method="memgraphrag", top_k=2)
    assert not result.fallback
    assert {p.name for p in result.passages} == {"Curie", "Warsaw"}  # Curie -> Warsaw -> Poland
    assert result.facts and "Marie Curie" in result.facts[0].text
    assert {"embed", "vector", "seeding", "projection", "ppr", "fetch"} <= set(result.timings_ms)


def test_projection_reused_then_rebuilt_after_ingest(memory):
    memory.search("Marie Curie", method="memgraphrag")
    memory.search("Alan Turing", method="hipporag2")
    assert memory.retrieval.projections.builds == 1
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    result = memory.search("Where was Grace Hopper born?", method="memgraphrag", top_k=1)
    assert memory.retrieval.projections.builds == 2
    assert result.passages[0].name == "Hopper"  # the rebuilt projection holds the new passage
    assert len(graphs(memory.store, memory.space)) == 1  # the stale projection was dropped


def test_ppr_matches_numpy_reference(memory, store, test_store, space):
    graph = memory.retrieval.projection()
    edges = test_store.read("projection_edges", graph=graph)
    seeds = {"entity": {}, "passage": {}}
    ids = {r["id"]: r for r in store.read("retrieval/passage_texts", space=space,
                                          ids=sorted({e["source"] for e in edges} | {e["target"] for e in edges}))}
    # entity ids are 32-hex content hashes; Type ids are type names; passages are excluded
    entity_ids = sorted({e["source"] for e in edges if e["source"] not in ids and len(e["source"]) == 32
                         and all(c in "0123456789abcdef" for c in e["source"])})
    seeds["entity"] = {entity_ids[0]: 0.7, entity_ids[1]: 0.3}
    rows = store.read("retrieval/ppr", space=space, graph=graph,
                      entity_seeds=[[k, v] for k, v in seeds["entity"].items()],
                      type_seeds=[], passage_seeds=[], damping=0.5, iterations=200, tolerance=1e-12, concurrency=1,
                      candidates=100_000, top_k=100, top_m=1000)
    got = {h["id"]: h["score"] for r in rows for h in r["top"]}
    # numpy power iteration of s = (1 - d) w + d * P^T s, P = row-normalised weighted adjacency
    nodes = sorted({e["source"] for e in edges} | {e["target"] for e in edges})
    index = {n: i for i, n in enumerate(nodes)}
    adj = np.zeros((len(nodes), len(nodes)))
    for e in edges:  # the stream lists each undirected edge in both directions
        adj[index[e["source"]], index[e["target"]]] += e["weight"]
    out = adj.sum(axis=1, keepdims=True)
    transition = np.divide(adj, out, out=np.zeros_like(adj), where=out > 0)
    teleport = np.array([seeds["entity"].get(n, 0.0) for n in nodes])
    scores = teleport * 0.5
    for _ in range(1000):
        scores = 0.5 * teleport + 0.5 * transition.T @ scores
    expected = {n: scores[index[n]] for n in nodes}
    assert got, "PPR returned nothing"
    for node_id, score in got.items():
        assert score == pytest.approx(expected[node_id], abs=1e-4)


def test_ask_answers_with_citations(memory):
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from memgraph_neo4j.llm.chat import LangChainChat

    chat = LangChainChat(FakeListChatModel(responses=['{"answer": "Poland", "citations": ["P1", "P2", "P9"]}']))
    answer = memory.ask("In which country was Marie Curie born?", chat=chat, top_k=2)
    assert answer.answer == "Poland"
    ids = [p.id for p in answer.evidence.passages]
    assert answer.cited_passage_ids == ids[:2]  # P9 does not exist and is dropped
    assert any("Marie Curie" in f for f in answer.facts)


QUESTION = "In which country was Marie Curie born?"


def same_ranking(a, b, tolerance: float = 1e-6) -> None:
    """Same hits in the same order, scores within `tolerance`, except the order of hits whose scores tie
    within it. The push form of PageRank stops within epsilon·mass·degree of the fixed point (ppr/push.py;
    ~1e-9 here): two nodes that close, or equal in exact arithmetic, come out in either order, and a tie at
    the cut-off shows either. Score by position and score by hit agree both ways: a hit found elsewhere in
    the other list is tied with what it displaced, one missing from it with the other list's last."""
    for name in ("passages", "entities"):
        x, y = getattr(a, name), getattr(b, name)
        shown = f"{name}: {[(h.id, h.score) for h in x]} != {[(h.id, h.score) for h in y]}"
        assert len(x) == len(y), shown
        for p, q in zip(x, y, strict=True):
            assert p.score == pytest.approx(q.score, abs=tolerance), shown
        for mine, other in ((x, y), (y, x)):
            scores = {h.id: h.score for h in other}
            for h in mine:
                assert abs(scores.get(h.id, other[-1].score if other else 0.0) - h.score) <= tolerance, shown


def test_local_engine_matches_gds(memory, store, space, minilm):
    gds = memory.search(QUESTION, method="memgraphrag", top_k=3, top_m=5)
    local = Session(store, space, minilm, reference(ppr_engine="local"))
    result = local.search(QUESTION, method="memgraphrag", top_k=3, top_m=5)
    same_ranking(result, gds)
    assert result.passages[0].text and result.passages[0].text == gds.passages[0].text
    local.search("Where was Alan Turing born?", method="hipporag2")
    assert local.context.engine.exports == 1  # one export serves every query of this memory version
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    assert local.search("Where was Grace Hopper born?", top_k=1).passages[0].name == "Hopper"
    # the memory changed: the graph copy caught up from what the ingest stamped, not read again
    assert local.context.engine.exports == 1 and local.context.changes.reads >= 1


def test_pushed_pagerank_matches_gds(memory, store, space, minilm):
    """push_min_relationships=0 sends the local engine's PageRank through forward push (retrieval/ppr/
    push.py, meant for projections of millions of relationships): same ranking as GDS within 1e-6."""
    iterated = Session(store, space, minilm, reference(ppr_engine="local"))
    pushed = Session(store, space, minilm, reference(ppr_engine="local", push_min_relationships=0))
    for question in (QUESTION, "Where was Alan Turing born?", "capital of Poland"):
        for method in ("memgraphrag", "hipporag2"):
            expected = memory.search(question, method=method, top_k=3, top_m=5)
            got = pushed.search(question, method=method, top_k=3, top_m=5)
            same_ranking(got, expected)
            same_ranking(got, iterated.search(question, method=method, top_k=3, top_m=5))
    engine = pushed.context.engine
    copy = engine.copy.held[1]
    assert engine.uses_push(copy) and engine._push[0] == copy.uid  # the push path ran
    assert not iterated.context.engine.uses_push(iterated.context.engine.copy.held[1])


def same_layers(a, b, tolerance: float = 2e-2) -> None:
    """Same facts and schemas. The vector indexes score int8-quantised vectors until their segments are
    flushed: up to 8e-3 off the exact cosine seen here, hence the tolerance."""
    for kind in ("facts", "schemas"):
        assert [h.id for h in getattr(a, kind)] == [h.id for h in getattr(b, kind)], kind
        for x, y in zip(getattr(a, kind), getattr(b, kind), strict=True):
            assert x.score == pytest.approx(y.score, abs=tolerance)


def test_local_layer_search_matches_the_indexes(memory, store, space, minilm):
    counting = CountingStore(store)
    local = Session(counting, space, minilm, reference(layer_search="local"))
    for question in (QUESTION, "Where was Alan Turing born?", "capital of Poland"):
        for method in ("memgraphrag", "hipporag2"):
            got = local.search(question, method=method, top_k=3)
            expected = memory.search(question, method=method, top_k=3)
            same_layers(got, expected)
            same_ranking(got, expected, 1e-2)  # same order; scores move with the quantised seeds
    assert counting.searches == 0 and local.context.layers.exports == 1  # only the version was read
    # the local scores are the exact cosines of the stored vectors
    stored = {r["id"]: np.asarray(r["embedding"]) for r in store.read("retrieval/export_layers", space=space)}
    query, exact = minilm.embed_query(QUESTION), local.search(QUESTION)
    assert exact.facts and exact.schemas
    for hit in exact.facts + exact.schemas:
        v = stored[hit.id]
        assert hit.score == pytest.approx(float(v @ query / np.linalg.norm(v)), abs=1e-6)
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    hopper = local.search("Where was Grace Hopper born?", top_k=1)
    assert hopper.passages[0].name == "Hopper" and any("Grace Hopper" in f.text for f in hopper.facts)
    # the memory changed: the layers caught up from what the ingest stamped, not read again
    assert local.context.layers.exports == 1 and local.context.layers.copy.catch_ups == 1
    # a space larger than the cap is searched through the indexes, with the same results
    capped = Session(counting, space, minilm, reference(layer_search="local", snapshot_max_vectors=5))
    same_layers(capped.search(QUESTION), memory.search(QUESTION))
    assert capped.context.layers.exports == 0 and counting.searches == 1
    before = dict(counting.reads)
    same_layers(capped.search(QUESTION), memory.search(QUESTION))
    # once known to be too large, one round trip per query: the index query carries the version
    grew = {name: n - before.get(name, 0) for name, n in counting.reads.items() if n != before.get(name, 0)}
    assert grew == {"retrieval/memory_layers": 1, "retrieval/memory_state_names": 1, "retrieval/ppr": 1}
    # a write moved the version: the index search that read it stands, the layers are not searched twice
    memory.retract(Document(title="Hopper", text=TEXTS["HOPPER"]).id)
    before = dict(counting.reads)
    same_layers(capped.search(QUESTION), memory.search(QUESTION))
    assert counting.reads["retrieval/memory_layers"] - before["retrieval/memory_layers"] == 1


def test_client_engine_builds_and_ranks_through_graphdatascience(memory, store, space, minilm):
    expected = memory.search(QUESTION, top_k=3, top_m=5)
    drop_graphs(store, space)
    client = Session(store, space, minilm, reference(ppr_engine="client"))
    same_ranking(client.search(QUESTION, top_k=3, top_m=5), expected)
    assert client.context.projections.builds == 1
    assert graphs(store, space) == [client.context.projection()]
    client.search("Where was Alan Turing born?")
    assert client.context.projections.builds == 1  # found again through the client's catalog


def test_seed_statistics_per_query_match_the_snapshot(memory, store, space, minilm):
    counting = CountingStore(store)
    per_query = Session(counting, space, minilm, reference(snapshot_max_mentions=0))
    for question in (QUESTION, "Where was Alan Turing born?"):
        same_ranking(per_query.search(question, top_k=3, top_m=5), memory.search(question, top_k=3, top_m=5), 0.0)
    assert counting.reads["retrieval/seed_statistics"] == 2
    assert counting.reads["retrieval/export_statistics"] == 0


def test_gds_top_k_is_exact_when_few_candidates_are_resolved(memory, store, space, minilm):
    # one candidate per call forces the widening loop; the answer must not change
    narrow = Session(store, space, minilm, reference(ppr_candidates=1))
    same_ranking(narrow.search(QUESTION, top_k=3, top_m=5), memory.search(QUESTION, top_k=3, top_m=5), 0.0)


def test_projections_of_other_settings_live_until_the_memory_changes(memory, store, test_store, space, minilm):
    without_types = Session(store, space, minilm, reference(type_weight=0.0))
    memory.search(QUESTION)
    without_types.search(QUESTION)
    memory.search(QUESTION)
    without_types.search(QUESTION)
    assert (memory.retrieval.projections.builds, without_types.context.projections.builds) == (1, 1)
    assert len(graphs(store, space)) == 2
    # space "<space>_v9" shares the "mg_<space>_v" prefix; its projection is not ours to drop
    neighbour = f"mg_{space}_v9_v0_p1_t1"
    test_store.write("tiny_projection", name=neighbour)
    try:
        memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
        memory.search(QUESTION)
        # only stale ones went
        assert sorted(graphs(store, space)) == sorted([memory.retrieval.projection(), neighbour])
    finally:
        store.write("admin/drop_graph", name=neighbour)


def test_no_adjudication_ablation_uses_judged_facts(memory, store, test_store, space, minilm):
    question = "Where was Alan Turing born?"
    assert any("London" in f.text for f in memory.search(question).facts)
    assert test_store.write("judge_facts", space=space, text="London", state="discarded")[0]["judged"] == 1
    judged = memory.search(question)
    assert judged.facts and not any("London" in f.text for f in judged.facts)
    unjudged = Session(store, space, minilm, reference(adjudication=False)).search(question)
    assert any("London" in f.text for f in unjudged.facts)
    # the projections differ too: only the ablation's graph still links Alan Turing and London
    edges = {frozenset((e["source"], e["target"])) for e in test_store.read(
        "projection_edges", graph=memory.retrieval.projection())}
    ablation = Session(store, space, minilm, reference(adjudication=False))
    ablation_edges = {frozenset((e["source"], e["target"]))
                      for e in test_store.read("projection_edges", graph=ablation.context.projection())}
    assert len(ablation_edges - edges) == 1


class CountingStore:
    """A GraphStore that counts the reads by statement name."""

    def __init__(self, store) -> None:
        self.store, self.reads, self.searches = store, Counter(), 0

    def read(self, name: str, /, **params):
        self.reads[name] += 1
        # a vector-index search, not a version read alone
        self.searches += name == "retrieval/memory_layers" and any(params["fetch"].values())
        return self.store.read(name, **params)

    def __getattr__(self, attribute: str):
        return getattr(self.store, attribute)


def test_other_spaces_do_not_crowd_the_layers(memory, store, space, minilm, ontology):
    # a twin space fills the shared vector indexes with look-alike hits of another space; the space
    # filter is inside the search, so even one hit asked per result needs no second search
    twin = MemoryGraph(space=f"{space}_twin", store=store, ontology=ontology, embedder=minilm,
                       extractor=ScriptedExtractor(SCRIPT), retrieval=reference())
    try:
        twin.ingest([Document(title=k.title(), text=v) for k, v in TEXTS.items()], progress=False)
        tight_store, wide_store = CountingStore(store), CountingStore(store)
        tight = Session(tight_store, space, minilm,
                          reference(over_fetch=1, min_fetch=1)).search(QUESTION, top_k=3)
        wide = Session(wide_store, space, minilm, reference(over_fetch=100)).search(QUESTION, top_k=3)
        assert tight_store.searches == 1 == wide_store.searches
        assert [f.id for f in tight.facts] == [f.id for f in wide.facts] and len(wide.facts) >= 2
        assert [s.id for s in tight.schemas] == [s.id for s in wide.schemas]
        same_ranking(tight, wide, 0.0)
        # the exact in-process search reads only this space's vectors, not the twin's look-alikes
        local = Session(store, space, minilm, reference(layer_search="local")).search(QUESTION, top_k=3)
        same_layers(local, wide)
        same_ranking(local, wide, 1e-2)
    finally:
        store.run_implicit("admin/delete_space", space=twin.space)
        drop_graphs(store, twin.space)


def test_bad_engine_settings_are_named():
    with pytest.raises(ValueError, match="ppr_engine"):
        RetrievalConfig(ppr_engine="igraph")
    with pytest.raises(ValueError, match="damping"):
        RetrievalConfig(damping=1.0)
    with pytest.raises(ValueError, match="min_fetch must be >= 1, not 0"):
        RetrievalConfig(min_fetch=0)
    with pytest.raises(ValueError, match="layer_search must be one of index, local, not 'faiss'"):
        RetrievalConfig(layer_search="faiss")


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    env.pop("OPENAI_API_KEY", None)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=600)


def test_query_and_ask_cli(memory, neo4j_connection, space):
    ok = _cli(neo4j_connection, "query", QUESTION, "--space", space, "--json", "--ppr-engine", "local",
              "--layer-search", "local")
    assert ok.returncode == 0, ok.stderr
    result = json.loads(ok.stdout)
    # the default fuses the walk with BM25 and dense: Curie first, the second hop still among the hits
    assert result["passages"][0]["name"] == "Curie" and not result["fallback"]
    assert "Warsaw" in {p["name"] for p in result["passages"]}
    bad = _cli(neo4j_connection, "query", QUESTION, "--space", space, "--ppr-engine", "igraph")
    assert bad.returncode == 1 and "ppr_engine must be one of gds, local, client" in bad.stderr
    no_llm = _cli(neo4j_connection, "ask", QUESTION, "--space", space, "--base-url", "http://127.0.0.1:9/v1")
    assert no_llm.returncode == 1 and "http://127.0.0.1:9/v1" in no_llm.stderr and "Traceback" not in no_llm.stderr


def test_co_occurrence_weight_changes_only_co_occurrence_edges(store, space, minilm, ontology):
    script = {"P1": [("Ada Lovelace", "co_occurs_with", "Charles Babbage", "Person", "Person"),
                     ("Ada Lovelace", "born in", "London", "Person", "Place")]}
    memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm,
                         extractor=ScriptedExtractor(script))
    memory.ingest([Document(title="P1", text="P1 Ada Lovelace met Charles Babbage; she was born in London.")],
                  progress=False)
    try:
        edges = {}
        for weight in (1.0, 0.25):
            session = Session(store, space, minilm, reference(co_occurrence_weight=weight))
            session.search("Who did Ada Lovelace meet?")
            graph = session.context.projection()
            projections = ProjectionRepository(store, space)
            nodes = projections.nodes()
            name = dict(zip(nodes.keys, nodes.names))
            rels = projections.relationships(graph)
            edges[weight] = {(name[s], name[t]): w for s, t, w in zip(rels.sources, rels.targets, rels.weights)}
        assert edges[1.0].keys() == edges[0.25].keys()
        changed = {pair for pair in edges[1.0] if edges[1.0][pair] != edges[0.25][pair]}
        assert changed == {("Ada Lovelace", "Charles Babbage"), ("Charles Babbage", "Ada Lovelace")}
        assert edges[0.25][("Ada Lovelace", "Charles Babbage")] == pytest.approx(0.25)
        assert edges[0.25][("Ada Lovelace", "London")] == edges[1.0][("Ada Lovelace", "London")] == 1.0
    finally:
        drop_graphs(store, space)
