"""`memgraph-neo4j ask` without a chat model: an extractive answer, as MemoryGraph.ask gives, said on stderr."""

from __future__ import annotations

import json

import pytest
from test_retrieval import QUESTION, _cli, memory, ontology  # noqa: F401 - the space of Curie and Warsaw


@pytest.mark.usefixtures("memory")
def test_ask_without_a_chat_model_answers_extractively_and_says_so(neo4j_connection, space, monkeypatch):
    """As MemoryGraph.ask: no --model/--base-url and neither OPENAI_API_KEY nor OPENAI_BASE_URL is an extractive
    answer, said in one line on stderr; a model asked for that fails stays an error
    (test_retrieval.py::test_query_and_ask_cli)."""
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    ran = _cli(neo4j_connection, "ask", QUESTION, "--space", space, "--json")
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.strip() == ("note: no chat model (--model/--base-url, or OPENAI_API_KEY / OPENAI_BASE_URL): "
                                  "answered extractively, quoting the passages")
    answer = json.loads(ran.stdout)
    assert answer["extractive"] is True and answer["model"] is None and answer["quotes"]
    assert "Warsaw" in answer["answer"] and answer["quotes"][0]["passage_id"] in answer["cited_passage_ids"]
