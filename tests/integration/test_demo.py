"""The demo (memgraph_neo4j/demo) on a real Neo4j + GDS, in a fresh space: the shipped corpus answers its
three questions with citations, its planted contradiction becomes a conflict, the temporal and the
granularity conflicts are resolved by the offline rules, and the duplicate person is one entity.

Both offline extractors are run: the heuristic one is what `pip install memgraph-neo4j` gives (the
README's fresh machine), spaCy the `nlp` extra (CI)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.demo.scenario import DUPLICATE, GUIDE, QUESTIONS, answer, corpus_files, run_demo
from memgraph_neo4j.extractors.offline import OfflineExtractor
from memgraph_neo4j.llm.chat import LangChainChat
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.layers import LayerRepository
from memgraph_neo4j.retrieval.extractive import sentences
from memgraph_neo4j.retrieval.projection import space_prefix

EXPECTED_WORDS = ("Poland", "Redmond", "HMS Beagle")  # what each question's answer must quote


class Unreachable:
    """A chat model whose server does not answer."""

    provider, model, price = "openai", "down", None

    def complete_json(self, system, user, schema):
        raise ConnectionError("connection refused")


def drop_graphs(store, space) -> None:
    for graph in LayerRepository(store, space).state(space_prefix(space)).graphs:
        store.write("admin/drop_graph", name=graph)


@pytest.fixture(params=["heuristic", "spacy"])
def memory(request, store, space, minilm, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # the demo's offline path
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    try:
        extractor = OfflineExtractor(load_ontology(), minilm, ner=request.param)
    except RuntimeError as exc:  # ner="spacy" without the nlp extra
        pytest.skip(str(exc))
    m = MemoryGraph(space=space, store=store, embedder=minilm, extractor=extractor)
    yield m
    drop_graphs(store, space)


def _facts(conflict) -> set[str]:
    return {f.text for f in conflict.facts}


def test_the_demo_answers_with_citations_and_adjudicates(memory, store, space):
    report = run_demo(memory)
    assert report.ingest["passages_new"] == len(corpus_files()) == 10 and report.other_documents == 0
    assert report.answers_by == "extractive" and report.model is None

    # three answers, each quoting sentences of the passages it cites
    assert [a.question for a in report.answers] == list(QUESTIONS)
    for given, word in zip(report.answers, EXPECTED_WORDS, strict=True):
        assert given.extractive and given.citations, given
        assert word in given.answer, given.answer
        for cite in given.citations:
            assert f"{cite.text} [{cite.label}]" in given.answer
    passages = {p.id: p.text for a in [memory.answer_extractive(QUESTIONS[0])] for p in a.evidence.passages}
    for cite in report.answers[0].citations:
        assert cite.text in sentences(passages[cite.passage_id])

    # the contradiction: two birth years of Alan Turing, which no rule settles
    by_type = {c.type: c for c in report.conflicts.items}
    turing = by_type["mutual_exclusion"]
    assert _facts(turing) == {"Alan Turing birth date 1912", "Alan Turing birth date 1913"}
    assert turing.status == "needs_review"
    # the temporal change: Microsoft's three headquarters, each qualified with its years
    moves = by_type["temporal"]
    assert moves.status == "resolved" and {f.verdict for f in moves.facts} == {"qualify"}
    starts = {f.text.split(" (")[0]: f.valid_from for f in moves.facts}
    assert starts == {"Microsoft headquartered in Albuquerque": "1975", "Microsoft headquartered in Bellevue": "1979",
                      "Microsoft headquartered in Redmond": "1986"}
    # one value at two levels: Warsaw is in Poland, so "born in Poland" stands as the broader value
    curie = by_type["granularity"]
    assert curie.status == "resolved"
    assert _facts(curie) == {"Marie Curie born in Warsaw", "Marie Curie born in broader Poland"}
    assert report.conflicts.total == 3 and report.conflicts.resolved == 2 and report.conflicts.needs_review == 1

    # the duplicate person: one entity under both names
    ids = memory.entity_ids(DUPLICATE)
    assert report.duplicates[0].merged and ids[DUPLICATE[0]] is not None and len(set(ids.values())) == 1

    assert report.health["facts_without_evidence"] == 0 and report.health["entities"] > 0
    assert report.health["conflicts"]["temporal"] == {"resolved": 1}

    # the Browser guide query the demo prints returns the fact graph with its conflicts
    rows = store.read(GUIDE, space=space)
    assert len({r["f"]["id"] for r in rows}) == report.counts["Fact"]["total"]
    assert sum(r["c"] is not None for r in rows) == 7  # 2 + 3 + 2 facts involved in the three conflicts

    # no chat model configured: ask() answers extractively, as the demo did
    asked = memory.ask(QUESTIONS[1])
    assert asked.extractive and asked.answer == report.answers[1].answer
    # with a chat model the answer is generated and cites what the model cited; a failing model falls back
    chat = LangChainChat(FakeListChatModel(responses=['{"answer": "In Poland.", "citations": ["P2", "P9"]}']))
    warnings: list[str] = []
    generated = answer(memory, QUESTIONS[0], chat, warnings)
    assert generated.answer == "In Poland." and not generated.extractive and not warnings
    assert [c.label for c in generated.citations] == ["P2"]  # P9 is no passage of the context
    fallback = answer(memory, QUESTIONS[0], Unreachable(), warnings)
    assert fallback.extractive and fallback.answer == report.answers[0].answer
    assert len(warnings) == 1 and "ConnectionError" in warnings[0]

    # a second run ingests nothing and answers the same
    again = run_demo(memory)
    assert again.ingest["passages_new"] == 0 and again.ingest["facts"] == 0
    assert [a.answer for a in again.answers] == [a.answer for a in report.answers]
    assert {c.id for c in again.conflicts.items} == {c.id for c in report.conflicts.items}


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    env.pop("OPENAI_API_KEY", None)
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "demo", *args], capture_output=True,
                          text=True, env=env, timeout=600)


def test_the_demo_command_prints_json_for_scripts_then_a_readable_report(neo4j_connection, store, space):
    try:
        first = _cli(neo4j_connection, "--space", space, "--json")
        assert first.returncode == 0, first.stderr
        data = json.loads(first.stdout)  # stdout is the JSON alone: progress goes to stderr
        assert len(data["answers"]) == 3 and all(a["citations"] for a in data["answers"])
        assert data["conflicts"]["resolved"] >= 1 and data["duplicates"][0]["merged"]
        assert data["browser"]["params"] == f':params {{space: "{space}"}}' and data["browser"]["url"] is None
        assert "$space" in data["browser"]["query"]

        second = _cli(neo4j_connection, "--space", space)
        assert second.returncode == 0, second.stderr
        text = second.stdout
        assert "nothing new" in text and text.count("A (extractive): ") == 3
        assert all(f"Q: {q}" in text for q in QUESTIONS) and "needs review" in text
        assert ":params {space: " in text and "memgraph-neo4j conflicts show" in text
        # the review command the demo prints works as printed (a 12-character prefix of the conflict id)
        [printed] = re.findall(r"review it: memgraph-neo4j (conflicts show \S+ --space \S+)$", text, re.M)
        assert printed == f"conflicts show {printed.split()[2][:12]} --space {space}"
        env = dict(os.environ, NEO4J_URI=neo4j_connection.uri, NEO4J_USERNAME=neo4j_connection.username,
                   NEO4J_PASSWORD=neo4j_connection.password, NEO4J_DATABASE=neo4j_connection.database)
        shown = subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *printed.split()],
                               capture_output=True, text=True, env=env, timeout=600)
        assert shown.returncode == 0, shown.stderr
        assert "needs_review" in shown.stdout and "Alan Turing birth date 1912" in shown.stdout
    finally:
        drop_graphs(store, space)
