"""The neo4j-graphrag adapter (memgraph_neo4j.adapters.neo4j_graphrag.MemoryRetriever) in neo4j-graphrag's own
GraphRAG with a fake LLMInterface, on the real Neo4j."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("neo4j_graphrag", reason="the [neo4j-graphrag] extra: pip install 'memgraph-neo4j[neo4j-graphrag]'")

from neo4j_graphrag.generation import GraphRAG  # noqa: E402
from neo4j_graphrag.llm import LLMInterface  # noqa: E402
from neo4j_graphrag.llm.types import LLMResponse  # noqa: E402
from neo4j_graphrag.retrievers.base import Retriever  # noqa: E402
from neo4j_graphrag.types import RetrieverResult  # noqa: E402

from memgraph_neo4j.adapters.neo4j_graphrag import MemoryRetriever  # noqa: E402
from memgraph_neo4j.adapters.recall import recall  # noqa: E402

NEWTON = "Where was Isaac Newton born?"


class CitingLLM(LLMInterface):
    """Answers with the first passage of the context it is given, cited by its label and id."""

    def __init__(self) -> None:
        super().__init__(model_name="citing-fake")
        self.prompts: list[str] = []

    def invoke(self, input, message_history=None, system_instruction=None) -> LLMResponse:
        self.prompts.append(input)
        cited = re.search(r"^\[(.+?)\] \(passage (\w+)\)$", input, re.MULTILINE)
        return LLMResponse(content=f"See {cited.group(1)}, passage {cited.group(2)}." if cited else "No idea.")

    async def ainvoke(self, input, message_history=None, system_instruction=None) -> LLMResponse:
        return self.invoke(input, message_history, system_instruction)


def test_graph_rag_answers_from_the_retrieved_passages_with_their_facts_and_conflicts(known):
    retriever = MemoryRetriever(known, top_k=2)
    assert isinstance(retriever, Retriever)
    llm = CitingLLM()
    result = GraphRAG(retriever=retriever, llm=llm).search(NEWTON, return_context=True)
    items = result.retriever_result.items
    expected = recall(known, NEWTON, top_k=2)
    assert [i.metadata for i in items] == [f.metadata for f in expected]
    assert [i.content for i in items] == [f.context() for f in expected]
    assert result.retriever_result.metadata["__retriever"] == "MemoryRetriever"
    top = expected[0].metadata
    assert result.answer == f"See {top['citation']}, passage {top['passage_id']}."
    [prompt] = llm.prompts
    assert NEWTON in prompt and all(f.text in prompt for f in expected)
    # the model is told about the conflict: both birthplaces, its type and that it waits for review
    assert "conflict" in prompt and "(mutual_exclusion, needs_review)" in prompt
    assert "Isaac Newton born in Woolsthorpe" in prompt and "Isaac Newton born in Cambridge" in prompt


def test_retriever_config_sets_top_k_method_and_as_of(known):
    llm = CitingLLM()
    rag = GraphRAG(retriever=MemoryRetriever(known), llm=llm)
    result = rag.search("Where is Acme headquartered?", return_context=True,
                        retriever_config={"top_k": 1, "method": "hybrid", "as_of": "2024-03-01"})
    [item] = result.retriever_result.items
    assert "Acme is based in Paris" in item.content and item.metadata["as_of"] == "2024-03-01"
    assert result.retriever_result.metadata["as_of"] == "2024-03-01"
    assert result.answer == f"See {item.metadata['citation']}, passage {item.metadata['passage_id']}."
    direct = MemoryRetriever(known, method="hybrid", as_of="2024-07-01").search(query_text="Acme headquarters")
    assert isinstance(direct, RetrieverResult) and any("Berlin" in i.content for i in direct.items)
    with pytest.raises(ValueError, match="as_of needs a hybrid or dual method"):
        MemoryRetriever(known, as_of="2024-03-01").search(query_text="Acme")


def test_the_retriever_converts_to_a_neo4j_graphrag_tool(known):
    tool = MemoryRetriever(known).convert_to_tool("search_memory", "Search the memory")
    parameters = tool.get_parameters()
    assert parameters["required"] == ["query_text"]
    assert {"query_text", "top_k", "as_of", "method"} == set(parameters["properties"])
    assert "Isaac Newton born in Cambridge" in str(tool.execute(query_text=NEWTON, top_k=1))
