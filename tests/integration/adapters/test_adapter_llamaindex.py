"""The LlamaIndex adapter (memgraph_neo4j.adapters.llamaindex.MemoryRetriever) in llama-index-core's own
RetrieverQueryEngine with its MockLLM, on the real Neo4j."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_index.core", reason="the [llamaindex] extra: pip install 'memgraph-neo4j[llamaindex]'")

from llama_index.core.llms import MockLLM  # noqa: E402
from llama_index.core.query_engine import RetrieverQueryEngine  # noqa: E402
from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeWithScore  # noqa: E402

from memgraph_neo4j.adapters.llamaindex import MemoryRetriever  # noqa: E402
from memgraph_neo4j.adapters.recall import recall  # noqa: E402

NEWTON = "Where was Isaac Newton born?"


def test_the_retriever_returns_nodes_with_scores_and_the_metadata(known):
    retriever = MemoryRetriever(known, top_k=3)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve(NEWTON)
    expected = recall(known, NEWTON, top_k=3)
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [(n.node.node_id, n.node.text, n.score) for n in nodes] == [(f.id, f.text, f.score) for f in expected]
    for node, found in zip(nodes, expected, strict=True):
        assert node.node.metadata == {**found.metadata, "supported_facts": found.facts_text()}
        assert node.node.get_content(MetadataMode.EMBED) == found.text  # metadata stays out of embeddings
        shown = node.node.get_content(MetadataMode.LLM)
        assert found.id in shown and found.metadata["citation"] in shown and found.text in shown
        assert all(f["text"] in shown for f in found.metadata["facts"])
        assert "doc_id" not in shown
    cambridge = next(n for n in nodes if "Cambridge" in n.node.text).node
    [conflict] = cambridge.metadata["facts"][0]["conflicts"]
    assert conflict["status"] == "needs_review" and conflict["facts"][0]["text"] == "Isaac Newton born in Woolsthorpe"


def test_a_query_engine_answers_from_the_retrieved_nodes(known):
    engine = RetrieverQueryEngine.from_args(MemoryRetriever(known, top_k=2), llm=MockLLM())
    response = engine.query(NEWTON)
    expected = recall(known, NEWTON, top_k=2)
    assert [n.node.node_id for n in response.source_nodes] == [f.id for f in expected]
    assert [n.node.metadata["facts"] for n in response.source_nodes] == [f.metadata["facts"] for f in expected]
    answer = str(response)  # the mock model echoes its prompt: what the engine gave it from the retriever
    for found in expected:
        assert found.text in answer and found.id in answer and found.metadata["citation"] in answer
    assert "(mutual_exclusion, needs_review)" in answer


def test_as_of_is_a_retriever_argument(known):
    question = "Where is Acme headquartered?"
    [then] = MemoryRetriever(known, method="hybrid", top_k=1, as_of="2024-03-01").retrieve(question)
    assert "Acme is based in Paris" in then.node.text and then.node.metadata["as_of"] == "2024-03-01"
    later = MemoryRetriever(known, method="hybrid", top_k=2, as_of="2024-07-01").retrieve(question)
    assert any("Berlin" in n.node.text for n in later)
    with pytest.raises(ValueError, match="as_of needs a hybrid or dual method"):
        MemoryRetriever(known, as_of="2024-03-01").retrieve(question)
