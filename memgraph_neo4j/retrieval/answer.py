"""`ask`: retrieve, build a cited context (passages + the top entities' active facts), answer."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.prompts import answer as prompt
from memgraph_neo4j.retrieval.base import RetrievalResult, Retriever


class Quote(BaseModel):
    """A sentence of a cited passage, quoted by an extractive answer (retrieval/extractive.py)."""

    passage_id: str
    label: str  # P1, P2 ...: the passage's place in the evidence, as the answer cites it
    text: str
    score: float
    source: str = ""  # the passage's label at this sentence: its page and heading, not the passage's start


class Answer(BaseModel):
    question: str
    answer: str
    cited_passage_ids: list[str]
    evidence: RetrievalResult
    facts: list[str] = Field(default_factory=list)
    model: str | None = None
    usage: Usage = Field(default_factory=Usage)
    extractive: bool = False  # quoted from the passages, not generated (no chat model)
    quotes: list[Quote] = Field(default_factory=list)  # the quoted sentences, when extractive


def build_context(result: RetrievalResult, facts: list[str], question: str = "") -> tuple[str, dict[str, str]]:
    """The numbered passages and the facts as the prompt shows them, and label -> passage id. A passage is
    named by where its sentence closest to `question` lies (else where it starts)."""
    labels = {f"P{i}": hit.id for i, hit in enumerate(result.passages, 1)}
    lines = [f"[P{i}] {hit.matched(question).label()}\n{hit.text or ''}" for i, hit in enumerate(result.passages, 1)]
    if facts:
        lines.append("Facts:\n" + "\n".join(f"- {f}" for f in facts))
    return "\n\n".join(lines), labels


FactsOf = Callable[[list[str], int], list[str]]  # entity ids, limit -> fact texts


def ask(retriever: Retriever, chat: ChatClient, question: str, top_k: int = 5, facts_of: FactsOf | None = None,
        max_facts: int = 30) -> Answer:
    """Retrieve, add the active facts of the top entities (`facts_of`, e.g. SearchRepository.facts_of),
    and let the chat model answer from that context, citing passages by label."""
    result = retriever.search(question, top_k=top_k)
    entity_ids = [e.id for e in result.entities]
    facts = facts_of(entity_ids, max_facts) if facts_of is not None and entity_ids else []
    text, labels = build_context(result, facts, question)
    reply = chat.complete_json(prompt.SYSTEM, prompt.user_prompt(text, question), prompt.AnswerModel)
    parsed = prompt.parse_answer(reply.text)
    cited = [labels[c] for c in parsed.citations if c in labels]
    return Answer(question=question, answer=parsed.answer, cited_passage_ids=cited, evidence=result,
                  facts=facts, model=reply.model, usage=reply.usage)
