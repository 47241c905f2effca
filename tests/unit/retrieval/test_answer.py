"""`ask` and the answer prompt (retrieval/answer.py, prompts/answer.py): pure, no Neo4j."""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from memgraph_neo4j.llm.chat import LangChainChat
from memgraph_neo4j.prompts.answer import parse_answer, user_prompt
from memgraph_neo4j.retrieval.answer import ask, build_context
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult

RESULT = RetrievalResult(
    method="memgraphrag",
    passages=[Hit(id="p-curie", name="Curie", score=0.9, text="Marie Curie was born in Warsaw."),
              Hit(id="p-warsaw", name="Warsaw", score=0.5, text="Warsaw is the capital of Poland.")],
    entities=[Hit(id="e-curie", name="Marie Curie", score=0.4), Hit(id="e-warsaw", name="Warsaw", score=0.3)])


class FixedRetriever:
    method = "memgraphrag"

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def search(self, question: str, top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        self.calls.append((question, top_k))
        return RESULT


def test_context_numbers_passages_and_lists_facts():
    text, labels = build_context(RESULT, ["Marie Curie born in Warsaw"])
    assert labels == {"P1": "p-curie", "P2": "p-warsaw"}
    assert text.startswith("[P1] Curie\nMarie Curie was born in Warsaw.\n\n[P2] Warsaw\n")
    assert text.endswith("Facts:\n- Marie Curie born in Warsaw")
    assert "Facts" not in build_context(RESULT, [])[0]
    assert user_prompt("CONTEXT", "Why?") == "CONTEXT\n\nQuestion: Why?"


def test_reply_parsing_repairs_or_keeps_the_words():
    assert parse_answer('```json\n{"answer": "Poland", "citations": ["P2"],}\n```').citations == ["P2"]
    plain = parse_answer("  It was Poland.  ")
    assert plain.answer == "It was Poland." and plain.citations == []


def test_ask_cites_known_labels_and_passes_the_entities_facts():
    asked: list[tuple[list[str], int]] = []

    def facts_of(entity_ids: list[str], limit: int) -> list[str]:
        asked.append((entity_ids, limit))
        return ["Marie Curie born in Warsaw", "Warsaw capital of Poland"]

    chat = LangChainChat(FakeListChatModel(responses=['{"answer": "Poland", "citations": ["P2", "P7", "P1"]}']))
    retriever = FixedRetriever()
    answer = ask(retriever, chat, "In which country was Marie Curie born?", top_k=2, facts_of=facts_of, max_facts=7)
    assert retriever.calls == [("In which country was Marie Curie born?", 2)]
    assert asked == [(["e-curie", "e-warsaw"], 7)]
    assert answer.answer == "Poland"
    assert answer.cited_passage_ids == ["p-warsaw", "p-curie"]  # P7 is no passage: dropped, order kept
    assert answer.facts[1] == "Warsaw capital of Poland" and answer.evidence is RESULT


def test_ask_without_facts_source_or_entities_sends_no_facts():
    chat = LangChainChat(FakeListChatModel(responses=["Poland"]))
    answer = ask(FixedRetriever(), chat, "Where?", facts_of=None)
    assert answer.facts == [] and answer.answer == "Poland" and answer.cited_passage_ids == []
