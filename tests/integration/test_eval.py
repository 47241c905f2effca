"""The evaluation harness end to end on a small JSONL dataset: build once, every method, QA scored
with a scripted chat model, the report on disk, and the CLI's errors."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys

import pytest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.evaluation.datasets import load_dataset
from memgraph_neo4j.evaluation.report import write_report
from memgraph_neo4j.evaluation.runner import evaluate
from memgraph_neo4j.evaluation.variants import variants
from memgraph_neo4j.llm.chat import ChatResult

CORPUS = [
    {"title": "Curie", "text": "Marie Curie was born in Warsaw and received the Nobel Prize in Physics."},
    {"title": "Warsaw", "text": "Warsaw is the capital of Poland, on the Vistula river."},
    {"title": "Turing", "text": "Alan Turing was born in London and worked at the University of Manchester."},
    {"title": "Hopper", "text": "Grace Hopper was born in New York City and developed COBOL."},
]
QUESTIONS = [
    {"id": "q1", "question": "In which country was Marie Curie born?", "answer": "Poland",
     "gold_titles": ["Curie", "Warsaw"]},
    {"id": "q2", "question": "Where was Alan Turing born?", "answer": "London", "gold_titles": ["Turing"]},
    {"id": "q3", "question": "Where was Grace Hopper born?", "answer": "New York City", "gold_titles": ["Hopper"]},
]
# scripted answers and judge verdicts; by hand: EM (1 + 0 + 0) / 3; F1 (1 + 1/2 + 0) / 3, since "in london
# england" vs "london" has precision 1/3 and recall 1; containment (1 + 1 + 0) / 3; judge (1 + 1 + 0) / 3
ANSWERS = {"Marie Curie": "Poland", "Alan Turing": "in London, England", "Grace Hopper": "Boston"}
CORRECT = {"Marie Curie": True, "Alan Turing": True, "Grace Hopper": False}


class ScriptedChat:
    provider, model, price = "scripted", "scripted-qa", None

    def __init__(self) -> None:
        self.calls: list[str] = []

    def complete_json(self, system: str, user: str, schema) -> ChatResult:
        self.calls.append(schema.__name__)
        question = re.search(r"^Question: (.*)$", user, re.M).group(1)  # the context names other people too
        person = next(name for name in ANSWERS if name in question)
        if schema.__name__ == "JudgeReply":
            text = json.dumps({"correct": CORRECT[person]})
        else:
            text = json.dumps({"answer": ANSWERS[person], "citations": ["P1"]})
        return ChatResult(text=text, usage=Usage(prompt_tokens=50, completion_tokens=5), model=self.model)


@pytest.fixture
def dataset_dir(tmp_path):
    folder = tmp_path / "people"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in CORPUS) + "\n")
    (folder / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in QUESTIONS) + "\n")
    return folder


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_evaluate_scores_retrieval_and_qa(store, space, minilm, dataset_dir, tmp_path):
    dataset = load_dataset(dataset_dir)
    chat = ScriptedChat()
    memory = MemoryGraph(space=space, store=store, embedder=minilm)
    report = evaluate(memory, dataset, variants(["dense", "memgraphrag"], []), chat=chat, progress=False)
    assert report.build["passages"] == 4 and report.build["passages_new"] == 4
    dense, graph = report.methods
    assert dense["recall@10"] == 1.0 and dense["recall@1"] >= 2 / 3  # four passages: all are in the top 10
    assert {"recall@1", "recall@2", "recall@5", "p50_ms", "p95_ms", "first_query_ms"} <= set(graph)
    assert dense["qa"] == pytest.approx({"exact_match": 1 / 3, "f1": 0.5, "containment": 2 / 3, "judge": 2 / 3},
                                        abs=1e-4)
    assert chat.calls.count("AnswerModel") == 6 and chat.calls.count("JudgeReply") == 6
    assert report.usage.prompt_tokens == 12 * 50
    assert report.health["entities"] > 0 and report.health["facts_without_evidence"] == 0
    # built once: evaluating again writes no passage
    assert evaluate(memory, dataset, variants(["bm25"], []), progress=False).build["passages_new"] == 0
    files = write_report(report, tmp_path / "report")
    assert {f.name for f in files} == {"report.json", "report.md", "recall.png", "latency.png", "degree.png"}
    assert all(png_size(f)[0] > 400 for f in files if f.suffix == ".png")
    assert "| dense | " in (tmp_path / "report" / "report.md").read_text()


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_eval_and_health_cli(neo4j_connection, store, space, dataset_dir, tmp_path):
    out = tmp_path / "out"
    ran = _cli(neo4j_connection, "eval", "--dataset", str(dataset_dir), "--space", space, "--methods", "dense,bm25",
               "--ablations", "reference-engines", "--limit", "2", "--out", str(out), "--json")
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert report["questions"] == 2 and [m["key"] for m in report["methods"]] == ["dense", "bm25", "reference-engines"]
    assert all({"recall@2", "recall@5", "p50_ms"} <= set(m) for m in report["methods"])
    assert sorted(p.name for p in out.iterdir()) == ["degree.png", "latency.png", "recall.png", "report.json",
                                                     "report.md"]
    health = _cli(neo4j_connection, "health", "--space", space, "--json")
    assert health.returncode == 0, health.stderr
    assert json.loads(health.stdout)["nodes"]["Passage"]["total"] == 4


@pytest.mark.parametrize("make, expected", [
    (lambda d: d / "nowhere", "nowhere"),
    (lambda d: (d / "questions.jsonl").write_text('{"question": "x", "gold_titles": ["Curie"]}\n{oops\n') and d,
     "questions.jsonl"),
    (lambda d: (d / "corpus.jsonl").unlink() or d, "corpus"),
])
def test_eval_bad_datasets_get_one_line_errors(neo4j_connection, dataset_dir, make, expected):
    ran = _cli(neo4j_connection, "eval", "--dataset", str(make(dataset_dir)), "--methods", "dense")
    assert ran.returncode == 1 and expected in ran.stderr and "expected" in ran.stderr
    assert "Traceback" not in ran.stderr and len(ran.stderr.strip().splitlines()) == 1
    bad = _cli(neo4j_connection, "eval", "--dataset", str(dataset_dir), "--methods", "dense,colbert")
    assert bad.returncode == 1 and "unknown method 'colbert'" in bad.stderr
