"""Build once, evaluate many: one memory per dataset, every method and ablation on it in one run.

The space is built from the dataset by an ingest, which is idempotent: a missing space is built, a
stale one (passages missing, or failed before) is completed, a complete one costs a quick check. The
dataset's OpenIE file is used when it has one, else the configured extractor. A conversation dataset
(LoCoMo) is one space per conversation, `<space>_<conversation>`, its messages ingested as episodes;
each question retrieves from its own conversation's space. Each variant then gets a fresh
`RetrievalContext` per space (the first query is timed cold), answers every question with the top 10
passages, and, when a chat model is given, the answers are scored (exact match, F1, containment,
LLM judge). The `dual` method needs the chat model: it selects categories with it, over the hierarchy
`categorise` builds (or updates) before the variants run.
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field
from tqdm.auto import tqdm

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.evaluation import metrics
from memgraph_neo4j.evaluation.datasets import EvalDataset, EvalQuestion
from memgraph_neo4j.evaluation.locomo import evidence_recall
from memgraph_neo4j.evaluation.variants import NEEDS_CHAT, Variant
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
    gold: str  # titles | passages | evidence | turns
    build: dict[str, Any] = Field(default_factory=dict)
    methods: list[dict[str, Any]] = Field(default_factory=list)  # per variant: recall@k, p50_ms, ... (see _score)
    health: dict[str, Any] | None = None
    health_by_space: dict[str, dict[str, Any]] = Field(default_factory=dict)  # several spaces (conversations)
    usage: Usage = Field(default_factory=Usage)
    seconds: float = 0.0


@dataclass
class Target:
    """A space the questions retrieve from: the dataset's one, or a conversation's (key: its id)."""

    key: str | None
    memory: MemoryGraph
    turn_of: dict[str, str]  # passage id -> message id ("D3:1"), conversation spaces only


def targets(memory: MemoryGraph, dataset: EvalDataset) -> list[Target]:
    """`memory` itself, or one MemoryGraph per conversation (same store, embedder, extractor and settings)."""
    if not dataset.conversations:
        return [Target(None, memory, {})]
    from memgraph_neo4j.ingest.episodes import build_episodes

    found = []
    for conv in dataset.conversations:
        space = f"{memory.space}_{re.sub(r'[^A-Za-z0-9_-]', '_', conv.id)}"
        own = MemoryGraph(space=space, store=memory.store, ontology=memory.ontology, embedder=memory.embedder,
                          extractor=memory.extractor, settings=memory.settings, retrieval=memory.retrieval_config)
        turn_of = {pid: turn for (_, turn), pid in build_episodes([conv]).by_turn.items()}
        found.append(Target(conv.id, own, turn_of))
    return found


def gold_found(result: RetrievalResult, question: EvalQuestion, gold: str, k: int,
               turn_of: dict[str, str] | None = None) -> float:
    if gold == "turns":
        return evidence_recall([(turn_of or {}).get(h.id, "") for h in result.passages], question.gold_turns, k)
    if gold == "titles":
        return metrics.recall_at_k([h.name or "" for h in result.passages], question.gold_titles, k)
    if gold == "passages":
        return metrics.passage_recall_at_k([h.text or "" for h in result.passages], question.gold_passages, k)
    return metrics.evidence_recall_at_k([h.text or "" for h in result.passages], question.evidence, k)


def build(memory: MemoryGraph, dataset: EvalDataset, progress: bool, spaces: list[Target] | None = None,
          categorise: ChatClient | None = None) -> dict[str, Any]:
    """The space from the dataset's corpus, or each conversation's space from its messages (idempotent: only
    what is missing is done); with `categorise`, each space's category hierarchy built or updated."""
    spaces = spaces or targets(memory, dataset)
    if dataset.conversations:
        done = _build_conversations(dataset, spaces)
    else:
        done = _build_documents(memory, dataset, progress)
    if categorise is not None:
        reports = [t.memory.categorise(chat=categorise) for t in spaces]
        done["categories"] = {"layers": max(r.layers for r in reports), "calls": sum(r.calls for r in reports),
                              "categories_new": sum(r.categories_new for r in reports)}
        done["usage"] = sum((r.usage for r in reports), Usage()).model_dump()
    return done


def _build_conversations(dataset: EvalDataset, spaces: list[Target]) -> dict[str, Any]:
    began, totals = time.monotonic(), {"passages": 0, "passages_new": 0, "facts": 0, "conflicts": 0}
    by_id = {c.id: c for c in dataset.conversations}
    for target in spaces:
        report = target.memory.ingest_conversations([by_id[target.key]])
        for name in totals:
            totals[name] += getattr(report, name)
    return {"extractor": spaces[0].memory.extractor.name, **totals, "seconds": round(time.monotonic() - began, 1),
            "spaces": [t.memory.space for t in spaces]}


def _build_documents(memory: MemoryGraph, dataset: EvalDataset, progress: bool) -> dict[str, Any]:
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
                     chat: ChatClient | None = None, judge: Judge | None = None, progress: bool = True,
                     spaces: list[Target] | None = None) -> dict[str, Any]:
    spaces = spaces or targets(memory, dataset)
    contexts = {t.key: RetrievalContext(t.memory.store, t.memory.space, t.memory.embedder, variant.config(base))
                for t in spaces}
    selecting = Metered(chat) if chat is not None and variant.method in NEEDS_CHAT else None
    try:
        retrievers = {key: retriever_of(variant.method, ctx, selecting or chat) for key, ctx in contexts.items()}
        scored = _evaluate(retrievers, contexts, {t.key: t.turn_of for t in spaces}, dataset, variant, chat, judge,
                           progress)
        if selecting is not None:  # dual's category selection: its calls are in no result
            scored["usage"] = (Usage(**scored["usage"]) + selecting.usage).model_dump()
        return scored
    finally:
        for context in contexts.values():
            context.close()


class Metered:
    """A chat client that adds up the usage of its calls (for callers that report none of their own)."""

    def __init__(self, chat: ChatClient) -> None:
        self.chat, self.usage = chat, Usage()

    def __getattr__(self, name: str) -> Any:  # provider, model, price: the client's own
        return getattr(self.chat, name)

    def complete_json(self, system: str, user: str, schema: Any) -> Any:
        result = self.chat.complete_json(system, user, schema)
        self.usage = self.usage + result.usage
        return result


def retriever_of(method: str, context: RetrievalContext, chat: ChatClient | None):
    """The registry's retriever, or dual's (System-1 + System-2: selects with `chat`)."""
    if method in NEEDS_CHAT:
        if chat is None:
            raise ValueError(f"method {method!r} needs a chat model to select categories: pass chat=...")
        from memgraph_neo4j.retrieval.dual import DualRetriever

        return DualRetriever(context, chat=chat)
    return make_retriever(method, context)


def _evaluate(retrievers: dict, contexts: dict[str | None, RetrievalContext], turns: dict[str | None, dict],
              dataset: EvalDataset, variant: Variant, chat: ChatClient | None, judge: Judge | None,
              progress: bool) -> dict[str, Any]:
    recalls: dict[int, list[float]] = {k: [] for k in metrics.KS}
    latencies, stages, fallbacks, qa = [], {}, 0, {"exact_match": [], "f1": [], "containment": [], "judge": []}
    usage = Usage()
    by_kind: dict[str, dict[int, list[float]]] = {}
    first_ms = None
    for key, retriever in retrievers.items():  # cold: projection, exports, statistics (the first space timed)
        first = next((q for q in dataset.questions if q.conversation == key), dataset.questions[0])
        began = time.perf_counter()
        retriever.search(first.question, top_k=TOP_K)
        first_ms = first_ms if first_ms is not None else (time.perf_counter() - began) * 1000
    for q in tqdm(dataset.questions, desc=variant.key, unit="q", disable=not progress):
        retriever = retrievers[q.conversation]
        began = time.perf_counter()
        result = retriever.search(q.question, top_k=TOP_K)
        latencies.append((time.perf_counter() - began) * 1000)
        for k in metrics.KS:
            recalls[k].append(found := gold_found(result, q, dataset.gold, k, turns[q.conversation]))
            if q.kind is not None:
                by_kind.setdefault(q.kind, {}).setdefault(k, []).append(found)
        fallbacks += getattr(result, "fallback", 0)
        for stage, ms in result.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        if chat is not None and q.answer:
            facts_of = contexts[q.conversation].search.facts_of
            answer = ask(retriever, chat, q.question, top_k=5, facts_of=facts_of)
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
              "first_query_ms": round(first_ms or 0.0, 1), "dense_fallbacks": fallbacks,
              "stages_p50_ms": {s: round(statistics.median(v), 2) for s, v in stages.items()},
              "latencies_ms": [round(x, 2) for x in latencies], "usage": usage.model_dump(),
              "by_kind": {kind: {"questions": len(v[metrics.KS[0]]),
                                 **{f"recall@{k}": round(metrics.mean(r), 4) for k, r in v.items()}}
                          for kind, v in sorted(by_kind.items())}}
    if qa["exact_match"]:
        scored["qa"] = {name: round(metrics.mean(v), 4) for name, v in qa.items() if v}
    return scored


def evaluate(memory: MemoryGraph, dataset: EvalDataset, chosen: list[Variant], chat: ChatClient | None = None,
             judge_chat: ChatClient | None = None, health: bool = True, progress: bool = True) -> EvalReport:
    """Build the space(s) if needed, then every variant on them; graph health at the end. ValueError before
    anything is built when a variant needs a chat model (dual) and `chat` is None."""
    if chat is None and (needing := [v.key for v in chosen if v.method in NEEDS_CHAT]):
        raise ValueError(f"{', '.join(needing)}: needs a chat model to select categories; pass chat=...")
    began = time.monotonic()
    report = EvalReport(dataset=dataset.name, path=str(dataset.path), space=memory.space,
                        questions=len(dataset.questions), gold=dataset.gold)
    spaces = targets(memory, dataset)
    dual = any(v.method in NEEDS_CHAT for v in chosen)
    report.build = build(memory, dataset, progress, spaces, categorise=chat if dual else None)
    base = memory.retrieval_config or memory.settings.retrieval_config()
    judge = Judge(judge_chat or chat) if chat is not None else None
    for variant in chosen:
        report.methods.append(evaluate_variant(memory, dataset, variant, base, chat, judge, progress, spaces))
    for scored in report.methods:
        report.usage = report.usage + Usage(**scored["usage"])
    report.usage = report.usage + Usage(**report.build.get("usage", {}))
    if judge is not None:
        report.usage = report.usage + judge.usage
    if health:
        from dataclasses import asdict

        from memgraph_neo4j.evaluation.health import graph_health

        measured = {t.memory.space: asdict(graph_health(t.memory.store, t.memory.space)) for t in spaces}
        if len(measured) == 1:
            report.health = next(iter(measured.values()))
        else:
            report.health_by_space = measured
    for t in spaces:
        if t.memory is not memory:
            t.memory.close()
    report.seconds = round(time.monotonic() - began, 1)
    return report
