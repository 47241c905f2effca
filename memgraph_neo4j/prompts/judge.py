"""The LLM-judge prompt of the QA evaluation and its reply model."""

from __future__ import annotations

from pydantic import BaseModel

JUDGE_VERSION = "judge-v1"
SYSTEM = (
    "You grade answers to questions. Given the question, the gold answer and a predicted answer, decide "
    "whether the prediction is correct: it states the gold answer or the same thing in other words; extra "
    "detail is fine, a different or missing answer is not. Reply with JSON only: "
    '{"correct": true, "reason": "..."}'
)


class JudgeReply(BaseModel):
    correct: bool
    reason: str = ""


def user_prompt(question: str, gold: str, prediction: str) -> str:
    return f"Question: {question}\nGold answer: {gold}\nPredicted answer: {prediction}"
