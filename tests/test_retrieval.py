"""Retrieval on a small memory: methods, the PPR call against a numpy reference, projection reuse."""

from __future__ import annotations

import numpy as np
import pytest
from test_memory import ScriptedExtractor

from memgraph_neo4j.graph import MemoryGraph
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.retrieval.engine import RetrievalConfig

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
                    extractor=ScriptedExtractor(SCRIPT), retrieval=RetrievalConfig())
    m.ingest([Document(title=k.title(), text=v) for k, v in TEXTS.items() if k != "HOPPER"], progress=False)
    yield m
    for row in store.read("retrieval/list_graphs", prefix=f"mg_{space}_"):
        store.write("admin/drop_graph", name=row["graph"])


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
    assert memory.retriever.projection_builds == 1
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    result = memory.search("Where was Grace Hopper born?", method="memgraphrag", top_k=1)
    assert memory.retriever.projection_builds == 2
    assert result.passages[0].name == "Hopper"  # the rebuilt projection holds the new passage
    graphs = memory.store.read("retrieval/list_graphs", prefix=f"mg_{memory.space}_")
    assert len(graphs) == 1  # the stale projection was dropped


def test_ppr_matches_numpy_reference(memory, store, test_store, space):
    graph = memory.retriever.ensure_projection()
    edges = test_store.read("projection_edges", graph=graph)
    seeds = {"entity": {}, "passage": {}}
    ids = {r["id"]: r for r in store.read("retrieval/passage_texts", space=space,
                                          ids=sorted({e["source"] for e in edges} | {e["target"] for e in edges}))}
    # entity ids are 32-hex content hashes; Type ids are type names; passages are excluded
    entity_ids = sorted({e["source"] for e in edges if e["source"] not in ids and len(e["source"]) == 32
                         and all(c in "0123456789abcdef" for c in e["source"])})
    seeds["entity"] = {entity_ids[0]: 0.7, entity_ids[1]: 0.3}
    rows = store.read("retrieval/ppr", space=space, graph=graph, entity_seeds=[[k, v] for k, v in seeds["entity"].items()],
                      type_seeds=[], passage_seeds=[], damping=0.5, iterations=200, tolerance=1e-12, concurrency=1,
                      top_k=100, top_m=1000)
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
