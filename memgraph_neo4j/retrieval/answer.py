"""`ask`: retrieve, build a cited context (passages + the top entities' active facts), answer."""

from __future__ import annotations

from pydantic import BaseModel, Field

from memgraph_neo4j.agents.extract import parse_json_object
from memgraph_neo4j.retrieval.engine import RetrievalResult, Retriever

ANSWER_PROMPT_VERSION = "ans-v1"
SYSTEM = (
    "Answer the question from the numbered passages and facts only. Be brief. "
    'Reply with JSON: {"answer": "...", "citations": ["P1", ...]} citing the passages you used; '
    'if the context does not contain the answer, say so in "answer" and cite nothing.'
)


class AnswerModel(BaseModel):
    answer: str
    citations: list[str] = Field(default_factory=list)


class Answer(BaseModel):
    question: str
    answer: str
    cited_passage_ids: list[str]
    evidence: RetrievalResult
    facts: list[str] = Field(default_factory=list)
    model: str | None = None


def build_context(result: RetrievalResult, facts: list[str]) -> tuple[str, dict[str, str]]:
    labels = {f"P{i}": hit.id for i, hit in enumerate(result.passages, 1)}
    lines = [f"[P{i}] {hit.name or ''}\n{hit.text or ''}" for i, hit in enumerate(result.passages, 1)]
    if facts:
        lines.append("Facts:\n" + "\n".join(f"- {f}" for f in facts))
    return "\n\n".join(lines), labels


def ask(retriever: Retriever, chat, question: str, method: str = "memgraphrag", top_k: int = 5,
        max_facts: int = 30) -> Answer:
    result = retriever.search(question, method=method, top_k=top_k)
    facts = [r["text"] for r in retriever.store.read(
        "retrieval/entity_facts", space=retriever.space, entity_ids=[e.id for e in result.entities],
        limit=max_facts)] if result.entities else []
    context, labels = build_context(result, facts)
    reply = chat.complete_json(SYSTEM, f"{context}\n\nQuestion: {question}", AnswerModel)
    try:
        parsed = AnswerModel.model_validate(parse_json_object(reply.text))
    except (ValueError, TypeError):  # a model that ignores the JSON instruction still gets its words through
        parsed = AnswerModel(answer=reply.text.strip())
    cited = [labels[c] for c in parsed.citations if c in labels]
    return Answer(question=question, answer=parsed.answer, cited_passage_ids=cited, evidence=result,
                  facts=facts, model=reply.model)
