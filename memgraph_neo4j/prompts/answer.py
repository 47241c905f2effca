"""The answer prompt of `ask` and its reply model."""

from __future__ import annotations

from pydantic import BaseModel, Field

from memgraph_neo4j.prompts.json_reply import parse_json_object

ANSWER_PROMPT_VERSION = "ans-v1"
SYSTEM = (
    "Answer the question from the numbered passages and facts only. Be brief. "
    'Reply with JSON: {"answer": "...", "citations": ["P1", ...]} citing the passages you used; '
    'if the context does not contain the answer, say so in "answer" and cite nothing.'
)


class AnswerModel(BaseModel):
    answer: str
    citations: list[str] = Field(default_factory=list)


def user_prompt(context: str, question: str) -> str:
    return f"{context}\n\nQuestion: {question}"


def parse_answer(text: str) -> AnswerModel:
    """The reply as an AnswerModel; a model that ignores the JSON instruction still gets its words through."""
    try:
        return AnswerModel.model_validate(parse_json_object(text))
    except (ValueError, TypeError):
        return AnswerModel(answer=text.strip())
