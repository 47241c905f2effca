"""`eval` on LoCoMo and with every method `search` takes: a tiny LoCoMo-format file (tests/fixtures/
locomo_tiny.json, two conversations of eight messages) is built one space per conversation, every question
retrieves from its own conversation's space, and evidence-turn recall is reported for the conversation
methods; dual selects with a (scripted) chat model over the hierarchy eval categorises first, and fails in
one line without a model."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_eval import _cli

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.evaluation.datasets import load_dataset
from memgraph_neo4j.evaluation.runner import evaluate
from memgraph_neo4j.evaluation.variants import CONVERSATION_METHODS, SEARCH_METHODS, variants
from memgraph_neo4j.llm.chat import ChatResult
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval import METHODS
from memgraph_neo4j.retrieval.projection import space_prefix

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "locomo_tiny.json"
SPEAKERS = {"Ana", "Bo", "Caroline", "Mel"}


@pytest.fixture
def locomo_space(store, space):
    """The base name; its conversation spaces (`<space>_c1`, `<space>_c2`) are deleted afterwards."""
    yield space
    for conversation in ("c1", "c2"):
        name = f"{space}_{conversation}"
        delete_space(store, name, re.escape(space_prefix(name)) + r"\d+_p.*")


def test_every_search_method_is_an_eval_method():
    assert set(METHODS) | {"dual"} == set(SEARCH_METHODS)
    assert [v.method for v in variants(list(SEARCH_METHODS), [])] == list(SEARCH_METHODS)
    assert {"hybrid", "hybrid-context", "hybrid-expand", "hybrid-ppr"} <= set(CONVERSATION_METHODS)


def test_eval_reads_locomo_and_reports_recall_of_the_conversation_methods(neo4j_connection, store, locomo_space,
                                                                         tmp_path):
    out = tmp_path / "out"
    ran = _cli(neo4j_connection, "eval", "--dataset", str(FIXTURE), "--space", locomo_space, "--out", str(out),
               "--json")
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert report["gold"] == "turns" and report["questions"] == 8  # the category-5 question is left out
    assert [m["key"] for m in report["methods"]] == list(CONVERSATION_METHODS)
    # one space per conversation, each holding its own eight messages only
    assert report["build"]["spaces"] == [f"{locomo_space}_c1", f"{locomo_space}_c2"]
    assert report["build"]["passages"] == 16 and report["build"]["passages_new"] == 16
    assert not MemoryGraph(space=locomo_space, store=store).exists()
    for name, health in report["health_by_space"].items():
        assert health["nodes"]["Passage"]["total"] == 8, name
    for m in report["methods"]:
        # a conversation has 8 messages: its top 10 holds every evidence message unless a question reached
        # into the other conversation (or a hit's message id were lost)
        if m["key"] != "bm25":  # BM25 ranks only the messages that share a word with the question
            assert m["recall@10"] == 1.0, m["key"]
        assert 0 < m["recall@1"] <= m["recall@2"] <= m["recall@5"] <= m["recall@10"], m["key"]
        assert set(m["by_kind"]) == {"single-hop", "multi-hop", "temporal", "open-domain"}
        assert sum(k["questions"] for k in m["by_kind"].values()) == 8
    assert {p.name for p in out.iterdir()} >= {"report.json", "report.md", "recall.png", "latency.png"}
    text = (out / "report.md").read_text()
    assert "Recall@5 / @10 by question kind" in text and f"spaces `{locomo_space}_c1`, `{locomo_space}_c2`" in text


def test_dual_without_a_model_fails_in_one_line(neo4j_connection, locomo_space):
    ran = _cli(neo4j_connection, "eval", "--dataset", str(FIXTURE), "--space", locomo_space, "--methods",
               "hybrid,dual")
    assert ran.returncode == 1
    [line] = ran.stderr.strip().splitlines()
    assert "dual" in line and "--model" in line and "Traceback" not in line
    unknown = _cli(neo4j_connection, "eval", "--dataset", str(FIXTURE), "--methods", "hybrid-nope")
    assert unknown.returncode == 1 and "hybrid-context" in unknown.stderr and "dual" in unknown.stderr


class ScriptedCategories:
    """Groups the speakers and the other entities, selects the first category shown, answers 'unknown'."""

    provider, model, price = "scripted", "scripted-categories", None

    def __init__(self) -> None:
        self.calls: list[str] = []

    def complete_json(self, system: str, user: str, schema) -> ChatResult:
        self.calls.append(schema.__name__)
        items = {m.group(2).strip(): int(m.group(1)) for m in re.finditer(r"^\[(\d+)\] ([^:\n]+)", user, re.M)}
        if schema.__name__ == "GroupReply":
            people = [n for name, n in items.items() if name in SPEAKERS]
            other = [n for name, n in items.items() if name not in SPEAKERS]
            reply = {"categories": [{"name": "People", "summary": "who talks", "members": people},
                                    {"name": "Things", "summary": "what they talk about", "members": other}]}
        elif schema.__name__ == "SelectReply":
            reply = {"selected": [1], "all": False}
        elif schema.__name__ == "JudgeReply":
            reply = {"correct": False}
        else:
            reply = {"answer": "unknown", "citations": []}
        return ChatResult(text=json.dumps(reply), usage=Usage(prompt_tokens=10, completion_tokens=1), model=self.model)


def test_dual_categorises_each_conversation_and_selects_with_the_model(store, locomo_space, minilm):
    chat = ScriptedCategories()
    dataset = load_dataset(FIXTURE)
    with pytest.raises(ValueError, match="dual.*chat model"):  # before anything is built
        evaluate(MemoryGraph(space=locomo_space, store=store, embedder=minilm), dataset, variants(["dual"], []))
    assert not MemoryGraph(space=f"{locomo_space}_c1", store=store).exists()
    memory = MemoryGraph(space=locomo_space, store=store, embedder=minilm)
    report = evaluate(memory, dataset, variants(["hybrid", "dual"], []), chat=chat, health=False, progress=False)
    hybrid, dual = report.methods
    assert report.build["categories"]["layers"] >= 1 and chat.calls.count("GroupReply") >= 2  # both spaces
    assert dual["recall@10"] == 1.0 and dual["recall@1"] > 0
    n = len(dataset.questions)
    selections = chat.calls.count("SelectReply")
    assert selections == 2 * n + 2  # each question (its search, its answer's), each space's cold first query
    assert dual["usage"]["prompt_tokens"] == 10 * (selections + n) and hybrid["usage"]["prompt_tokens"] == 10 * n
    assert chat.calls.count("JudgeReply") == 2 * n and report.usage.prompt_tokens == 10 * len(chat.calls)
