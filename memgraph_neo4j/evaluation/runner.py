"""Build once, evaluate many: one memory per dataset, every method and ablation on it in one run.

The space is built from the dataset by an ingest, which is idempotent: a missing space is built, a
stale one (passages missing, or failed before) is completed, a complete one costs a quick check. The
dataset's OpenIE file is used when it has one, else the configured extractor. Each variant then gets
a fresh `RetrievalContext` (its first query is timed cold), answers every question with the top 10
passages, and, when a chat model is given, the answers are scored (exact match, F1, containment,
LLM judge).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from pydantic import BaseModel, Field
from tqdm.auto import tqdm

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.evaluation import metrics
from memgraph_neo4j.evaluation.datasets import EvalDataset, EvalQuestion
from memgraph_neo4j.evaluation.variants import Variant
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.prompts import judge as judge_prompt
from memgraph_neo4j.prompts.json_reply import parse_json_object
from memgraph_neo4j.retrieval import RetrievalContext, RetrievalResult, make_retriever
from memgraph_neo4j.retrieval.answer import ask

TOP_K = max(metrics.KS)


class EvalReport(BaseModel):
    dataset: str
    path: str
    space: str
    questions: int
    gold: str  # titles | passages | evidence
    build: dict[str, Any] = Field(default_factory=dict)
    methods: list[dict[str, Any]] = Field(default_factory=list)  # per variant: recall@k, p50_ms, ... (see _score)
    health: dict[str, Any] | None = None
    usage: Usage = Field(default_factory=Usage)
    seconds: float = 0.0


def gold_found(result: RetrievalResult, question: EvalQuestion, gold: str, k: int) -> float:
    if gold == "titles":
        return metrics.recall_at_k([h.name or "" for h in result.passages], question.gold_titles, k)
    if gold == "passages":
        return metrics.passage_recall_at_k([h.text or "" for h in result.passages], question.gold_passages, k)
    return metrics.evidence_recall_at_k([h.text or "" for h in result.passages], question.evidence, k)


def build(memory: MemoryGraph, dataset: EvalDataset, progress: bool) -> dict[str, Any]:
    """The space from the dataset's corpus (idempotent: only what is missing is done)."""
    extractor = None
    if dataset.openie is not None:
        from memgraph_neo4j.extractors.factory import make_extractor

        extractor = make_extractor("openie", memory.ontology, memory.embedder, openie=dataset.openie)
    report = memory.ingest(dataset.corpus, extractor=extractor, progress=progress)
    return {"extractor": (extractor or memory.extractor).name, "passages": report.passages,
            "passages_new": report.passages_new, "facts": report.facts, "conflicts": report.conflicts,
            "seconds": round(report.seconds, 1)}


class Judge:
    """LLM-judge accuracy: does the prediction state the gold answer?"""

    def __init__(self, chat: ChatClient) -> None:
        self.chat, self.usage = chat, Usage()

    def __call__(self, question: str, gold: str, prediction: str) -> float:
        reply = self.chat.complete_json(judge_prompt.SYSTEM, judge_prompt.user_prompt(question, gold, prediction),
                                        judge_prompt.JudgeReply)
        self.usage = self.usage + reply.usage
        try:
            return float(judge_prompt.JudgeReply.model_validate(parse_json_object(reply.text)).correct)
        except ValueError:
            return 0.0  # an unusable verdict counts as not correct


def evaluate_variant(memory: MemoryGraph, dataset: EvalDataset, variant: Variant, base: RetrievalConfig,
                     chat: ChatClient | None = None, judge: Judge | None = None,
                     progress: bool = True) -> dict[str, Any]:
    context = RetrievalContext(memory.store, memory.space, memory.embedder, variant.config(base))
    try:
        return _evaluate(make_retriever(variant.method, context), context, dataset, variant, chat, judge, progress)
    finally:
        context.close()


def _evaluate(retriever, context: RetrievalContext, dataset: EvalDataset, variant: Variant,
              chat: ChatClient | None, judge: Judge | None, progress: bool) -> dict[str, Any]:
    recalls: dict[int, list[float]] = {k: [] for k in metrics.KS}
    latencies, stages, fallbacks, qa = [], {}, 0, {"exact_match": [], "f1": [], "containment": [], "judge": []}
    usage = Usage()
    began = time.perf_counter()
    retriever.search(dataset.questions[0].question, top_k=TOP_K)  # cold: projection, exports, statistics
    first_ms = (time.perf_counter() - began) * 1000
    for q in tqdm(dataset.questions, desc=variant.key, unit="q", disable=not progress):
        began = time.perf_counter()
        result = retriever.search(q.question, top_k=TOP_K)
        latencies.append((time.perf_counter() - began) * 1000)
        for k in metrics.KS:
            recalls[k].append(gold_found(result, q, dataset.gold, k))
        fallbacks += result.fallback
        for stage, ms in result.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        if chat is not None and q.answer:
            answer = ask(retriever, chat, q.question, top_k=5, facts_of=context.search.facts_of)
            usage = usage + answer.usage
            qa["exact_match"].append(metrics.exact_match(answer.answer, q.answer))
            qa["f1"].append(metrics.token_f1(answer.answer, q.answer))
            qa["containment"].append(metrics.containment(answer.answer, q.answer))
            if judge is not None:
                qa["judge"].append(judge(q.question, q.answer, answer.answer))
    scored = {"key": variant.key, "label": variant.label, "method": variant.method,
              **{f"recall@{k}": round(metrics.mean(v), 4) for k, v in recalls.items()},
              "p50_ms": round(metrics.percentile(latencies, 0.5), 1),
              "p95_ms": round(metrics.percentile(latencies, 0.95), 1),
              "first_query_ms": round(first_ms, 1), "dense_fallbacks": fallbacks,
              "stages_p50_ms": {s: round(statistics.median(v), 2) for s, v in stages.items()},
              "latencies_ms": [round(x, 2) for x in latencies], "usage": usage.model_dump()}
    if qa["exact_match"]:
        scored["qa"] = {name: round(metrics.mean(v), 4) for name, v in qa.items() if v}
    return scored


def evaluate(memory: MemoryGraph, dataset: EvalDataset, chosen: list[Variant], chat: ChatClient | None = None,
             judge_chat: ChatClient | None = None, health: bool = True, progress: bool = True) -> EvalReport:
    """Build the space if needed, then every variant on it; graph health at the end."""
    began = time.monotonic()
    report = EvalReport(dataset=dataset.name, path=str(dataset.path), space=memory.space,
                        questions=len(dataset.questions), gold=dataset.gold)
    report.build = build(memory, dataset, progress)
    base = memory.retrieval_config or memory.settings.retrieval_config()
    judge = Judge(judge_chat or chat) if chat is not None else None
    for variant in chosen:
        report.methods.append(evaluate_variant(memory, dataset, variant, base, chat, judge, progress))
    for scored in report.methods:
        report.usage = report.usage + Usage(**scored["usage"])
    if judge is not None:
        report.usage = report.usage + judge.usage
    if health:
        from dataclasses import asdict

        from memgraph_neo4j.evaluation.health import graph_health

        report.health = asdict(graph_health(memory.store, memory.space))
    report.seconds = round(time.monotonic() - began, 1)
    return report
