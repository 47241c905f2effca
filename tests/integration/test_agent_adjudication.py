"""Agent adjudication by default: an ingest with a chat model checks conflicts with the paper's
classification and resolution agents (§4.2.2), one without runs the offline rules, and `--adjudicator
rules|model` chooses. Over HTTP against a local OpenAI-compatible stub that extracts, classifies and
resolves, and in process with a scripted chat model."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from test_adjudication import newton_judge
from test_ingest_exit_codes import ingest, stub  # noqa: F401 - the stub server fixture
from test_memory import ScriptedExtractor

from memgraph_neo4j.adjudication.agents import ChatClassifier
from memgraph_neo4j.adjudication.rules import RuleClassifier
from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.extractors.llm import LLMExtractor
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.documents import delete_space

BIRTH = {"A": "1643", "B": "1642"}  # the two birth years of Isaac Newton, one per document


def extraction(year: str) -> dict:
    return {"entities": [{"name": "Isaac Newton", "type": "Person"}, {"name": year, "type": "Date"}],
            "facts": [{"head": "Isaac Newton", "relation": "birth_date", "tail": year, "head_type": "Person",
                       "tail_type": "Date"}]}


def judge(body: dict) -> str:
    """The stub's model: extraction by the passage's marker, a mutual exclusion for every candidate, and a
    resolution that keeps the fact with 1643 (the passage says it is the Gregorian date)."""
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    if '{"pairs"' in system:
        return json.dumps({"pairs": [{"candidate": c, "type": "mutual_exclusion", "confidence": 0.95,
                                      "reason": "one person, two birth years"}
                                     for c in sorted(set(re.findall(r"^(C\d+):", user, re.M)))]})
    if '{"verdicts"' in system:
        facts = dict(re.findall(r"^(F\d+): (.*?) \[relation", user, re.M))
        return json.dumps({"verdicts": [{"fact": f, "verdict": "keep" if "1643" in t else "discard"}
                                        for f, t in facts.items()],
                           "confidence": 0.9, "rationale": "the Gregorian date"})
    marker = next(m for m in BIRTH if f"NEWTON_{m}" in user)
    return json.dumps(extraction(BIRTH[marker]))


@pytest.mark.parametrize(("adjudicator", "status", "judged_by"), [
    (None, "resolved", "stub-judge"),  # auto: the extractor's chat model adjudicates
    ("model", "resolved", "stub-judge"),
    ("rules", "needs_review", "rules"),  # no rule can tell which birth year is true
])
def test_an_ingest_with_a_chat_model_adjudicates_with_its_agents(neo4j_connection, store, stub, tmp_path,  # noqa: F811
                                                                 adjudicator, status, judged_by):
    stub.mode, stub.route = "route", judge
    space = f"t_agents_{uuid.uuid4().hex[:8]}"
    extra = ["--model", "stub-judge"] + (["--adjudicator", adjudicator] if adjudicator else [])
    try:
        for marker, year in BIRTH.items():
            doc = tmp_path / f"newton-{marker}.txt"
            doc.write_text(f"NEWTON_{marker} Isaac Newton was born in {year}.\n")
            done = ingest(neo4j_connection, stub, doc, space, *extra)
            assert done.returncode == 0, done.stderr[-2000:]
        with MemoryGraph(space=space, store=store, embedder=None) as memory:
            [conflict] = memory.conflicts.list()
            detail = memory.conflicts.show(conflict.id)
        assert (conflict.type, conflict.status, detail.model) == ("mutual_exclusion", status, judged_by)
        if judged_by != "rules":
            assert {f["text"]: f["state"] for f in detail.facts} == {
                "Isaac Newton birth date 1643": "active", "Isaac Newton birth date 1642": "discarded"}
    finally:
        delete_space(store, space)


def test_the_adjudicator_follows_the_chat_model_it_is_given(store, space):
    chat = newton_judge()
    llm = LLMExtractor(chat, load_ontology())
    assert isinstance(MemoryGraph(space=space, store=store, extractor=llm).adjudicator.classifier, ChatClassifier)
    assert isinstance(MemoryGraph(space=space, store=store, extractor=llm, adjudicator="rules").adjudicator.classifier,
                      RuleClassifier)
    offline = MemoryGraph(space=space, store=store, extractor=ScriptedExtractor({}), adjudication_chat=chat)
    assert isinstance(offline.adjudicator.classifier, ChatClassifier)
    assert isinstance(MemoryGraph(space=space, store=store, embedder=None).adjudicator.classifier, RuleClassifier)
    with pytest.raises(ValueError, match=r"^adjudicator 'model' needs a chat model: pass adjudication_chat=, or an "
                                         r"LLM extractor \(--extractor openai or langchain\)$"):
        MemoryGraph(space=space, store=store, embedder=None, adjudicator="model").adjudicator
    with pytest.raises(ValueError, match=r"^adjudicator 'agents': one of auto, rules, model"):
        MemoryGraph(space=space, store=store, embedder=None, adjudicator="agents")
