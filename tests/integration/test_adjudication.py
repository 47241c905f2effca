"""Global adjudication against a real Neo4j: detection, classification, resolution, review, revert.

The extractor and the chat model are scripted; the rules path needs no model at all."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import AdjudicationConfig, RetrievalConfig
from memgraph_neo4j.contracts import (
    ConflictStatus,
    ExtractedEntity,
    ExtractedFact,
    Extraction,
    ExtractionInput,
    ExtractionOutcome,
    FactState,
    Usage,
)
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.llm.chat import ChatResult
from memgraph_neo4j.llm.resilience import CircuitBreaker
from memgraph_neo4j.memory.ontology import load_ontology

Triple = tuple[str, str, str, str, str, str | None]  # head, relation, tail, head type, tail type, time


class TimedScript:
    """Facts (with times) keyed by a marker word in the chunk."""

    name = "scripted"

    def __init__(self, script: dict[str, list[Triple]]) -> None:
        self.script = script

    def extract(self, items: list[ExtractionInput], guide) -> list[ExtractionOutcome]:
        out = []
        for item in items:
            key = next((k for k in self.script if k in item.text), None)
            facts = [ExtractedFact(head=h, relation=r, tail=t, head_type=ht, tail_type=tt, time=time)
                     for h, r, t, ht, tt, time in self.script.get(key, [])]
            entities = [ExtractedEntity(name=n, type=ty) for f in facts
                        for n, ty in ((f.head, f.head_type), (f.tail, f.tail_type))]
            out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, extractor=self.name,
                                         extraction=Extraction(entities=entities, facts=facts), model="script"))
        return out

    def estimate(self, items, guide) -> Usage:
        return Usage()


class ScriptedChat:
    """A chat client whose replies are computed from the prompt: `classify(new, candidates)` and
    `resolve(facts)` get the fact lines the prompts show ({label: text})."""

    provider, model, price = "scripted", "scripted-judge", None

    def __init__(self, classify, resolve) -> None:
        self.classify, self.resolve = classify, resolve
        self.calls: list[str] = []

    def complete_json(self, system: str, user: str, schema) -> ChatResult:
        self.calls.append(schema.__name__)
        facts = dict(re.findall(r"^(\w+): (.*?) \[relation", user, re.M))
        if schema.__name__ == "ClassificationReply":
            new = facts.pop("NEW")
            fields = ("candidate", "type", "confidence", "reason")
            reply = {"pairs": [dict(zip(fields, (label, *self.classify(new, text)), strict=True))
                               for label, text in facts.items()]}
        else:
            reply = self.resolve(facts)
        usage = Usage(prompt_tokens=100, completion_tokens=20)
        return ChatResult(text=json.dumps(reply), usage=usage, model=self.model)


@pytest.fixture(scope="module")
def ontology():
    base = load_ontology()
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1, "percentile": None})})


def memory_of(store, space, ontology, minilm, script, **options) -> MemoryGraph:
    return MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm, extractor=TimedScript(script),
                       **options)


def only_conflict(store, space, ontology, minilm, script, **options):
    """Ingest one document per script key; the memory and the one conflict that must come of it."""
    memory = memory_of(store, space, ontology, minilm, script, **options)
    memory.ingest(docs(*script), progress=False)
    [conflict] = memory.conflicts.list()
    return memory, conflict


def docs(*keys: str) -> list[Document]:
    return [Document(title=k.title(), text=f"{k} passage about {k.lower()}.") for k in keys]


def facts(test_store, space) -> dict[str, dict]:
    """Every fact of the space by text (the text holds head, relation, tail and time)."""
    return {r["text"]: r for r in test_store.read("facts_with_evidence", space=space)}


NEWTON = {"NEWTON_A": [("Isaac Newton", "birth_date", "1645", "Person", "Date", None)],
          "NEWTON_B": [("Isaac Newton", "birth_date", "1643", "Person", "Date", None)],
          "NEWTON_C": [("Isaac Newton", "died_in", "London", "Person", "Place", None)]}


def newton_judge() -> ScriptedChat:
    def classify(new: str, candidate: str):
        return "mutual_exclusion", 0.95, "one person, two birth years"

    def resolve(shown: dict[str, str]):
        return {"verdicts": [{"fact": label, "verdict": "keep" if "1643" in text else "discard"}
                             for label, text in shown.items()],
                "confidence": 0.9, "rationale": "the passage with 1643 is the better source"}
    return ScriptedChat(classify, resolve)


def test_mutual_exclusion_resolved_by_the_agents_then_reverted(store, test_store, space, ontology, minilm):
    judge = newton_judge()
    memory = memory_of(store, space, ontology, minilm, NEWTON, adjudication_chat=judge)
    memory.ingest(docs("NEWTON_A"), progress=False)
    assert memory.conflicts.list() == []  # one birth year alone is no conflict
    memory.ingest(docs("NEWTON_B"), progress=False)
    [conflict] = memory.conflicts.list()
    assert (conflict.type, conflict.status) == ("mutual_exclusion", "resolved")
    stored = facts(test_store, space)
    assert stored["Isaac Newton birth date 1643"]["state"] == FactState.ACTIVE
    assert stored["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED
    assert stored["Isaac Newton birth date 1645"]["evidence"] == ["Newton_A"]  # evidence stays linked
    detail = memory.conflicts.show(conflict.id)
    assert {f["text"] for f in detail.facts} == set(conflict.facts) and detail.model == "scripted-judge"
    assert detail.pairs and detail.pairs[0]["type"] == "mutual_exclusion"
    assert judge.calls == ["ClassificationReply", "ResolutionReply"]
    # retrieval leaves the discarded fact out; the "no adjudication" ablation lets it back in
    question = "When was Isaac Newton born?"
    assert not any("1645" in f.text for f in memory.search(question).facts)
    ablation = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm,
                           retrieval=RetrievalConfig(adjudication=False))
    assert any("1645" in f.text for f in ablation.search(question).facts)
    # revert restores both exactly; accept applies the recorded verdicts again
    reverted = memory.conflicts.revert(conflict.id)
    assert reverted.status == ConflictStatus.NEEDS_REVIEW
    assert {f["state"] for f in facts(test_store, space).values()} == {FactState.ACTIVE}
    assert memory.conflicts.accept(conflict.id).status == ConflictStatus.RESOLVED
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED


def test_unsure_classifications_are_ignored(store, space, ontology, minilm):
    unsure = ScriptedChat(lambda new, candidate: ("mutual_exclusion", 0.6, "maybe"), lambda shown: {})
    memory = memory_of(store, space, ontology, minilm, NEWTON, adjudication_chat=unsure, adjudication=False)
    memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    report = memory.adjudicate()
    assert (report.candidates, report.conflicts, report.dismissed) == (1, 0, 1)  # 0.6 < 0.85: no conflict
    assert memory.conflicts.list() == [] and unsure.calls == ["ClassificationReply"]


def test_only_newly_active_facts_are_scanned(store, test_store, space, ontology, minilm):
    memory = memory_of(store, space, ontology, minilm, NEWTON, adjudication_chat=newton_judge())
    memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    before = set(facts(test_store, space))
    memory.ingest(docs("NEWTON_C"), progress=False)
    new = {text: row["id"] for text, row in facts(test_store, space).items() if text not in before}
    assert list(new) == ["Isaac Newton died in London"]
    assert memory.adjudicator.last_scanned == list(new.values())
    assert {c.fact for c in memory.adjudicator.last_candidates} <= set(new.values())
    assert memory.adjudicate().scanned == 0  # nothing new: nothing scanned
    assert memory.adjudicate(rescan_all=True).scanned == 2  # 1643 and London; 1645 is discarded


class FlakyChat:
    """`judge` behind a circuit breaker, as the real clients are; its first `failures` calls (every call:
    None) raise a ConnectionError. `calls` counts the calls that reached the model."""

    provider, price = "scripted", None

    def __init__(self, judge: ScriptedChat, failures: int | None, breaker: CircuitBreaker) -> None:
        self.judge, self.failures, self.breaker, self.calls = judge, failures, breaker, 0
        self.model = judge.model

    def complete_json(self, system: str, user: str, schema) -> ChatResult:
        def call() -> ChatResult:
            self.calls += 1
            if self.failures is None or self.calls <= self.failures:
                raise ConnectionError("connection reset by peer")
            return self.judge.complete_json(system, user, schema)
        return self.breaker.call(call)


def test_adjudication_retries_a_model_call_that_fails_transiently(store, test_store, space, ontology, minilm):
    flaky = FlakyChat(newton_judge(), failures=2, breaker=CircuitBreaker(threshold=5))
    memory = memory_of(store, space, ontology, minilm, NEWTON, adjudication_chat=flaky,
                       adjudication=AdjudicationConfig(backoff=0.01))
    report = memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    [conflict] = memory.conflicts.list()
    assert (conflict.status, report.conflicts_resolved) == ("resolved", 1)  # as if the model never failed
    assert flaky.calls == 4 and flaky.judge.calls == ["ClassificationReply", "ResolutionReply"]
    assert report.usage.prompt_tokens == 200 and flaky.breaker.state == "closed"  # the two answers, counted
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED


def test_a_model_that_stays_down_opens_the_breaker_and_leaves_the_conflict_for_review(store, test_store, space,
                                                                                       ontology, minilm):
    down = FlakyChat(newton_judge(), failures=None, breaker=CircuitBreaker(threshold=2, cooldown=600))
    memory = memory_of(store, space, ontology, minilm, NEWTON, adjudication_chat=down,
                       adjudication=AdjudicationConfig(backoff=0.01, max_retries=3))
    report = memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    # two failed calls open the breaker; the third attempt is refused without a call, and not retried
    assert down.calls == 2 and down.breaker.state == "open" and down.judge.calls == []
    [conflict] = memory.conflicts.list()
    assert (conflict.status, report.conflicts_to_review) == ("needs_review", 1)
    detail = memory.conflicts.show(conflict.id)
    assert "model call failed after 3 attempts (CircuitOpenError" in detail.reason
    stored = facts(test_store, space)  # nothing lost: both facts active, both in the conflict, for a person
    assert {t: r["state"] for t, r in stored.items() if "birth" in t} == {
        "Isaac Newton birth date 1643": FactState.ACTIVE, "Isaac Newton birth date 1645": FactState.ACTIVE}
    assert {f["text"] for f in detail.facts} == {"Isaac Newton birth date 1643", "Isaac Newton birth date 1645"}
    keep = stored["Isaac Newton birth date 1643"]["id"]
    assert memory.conflicts.accept(conflict.id, keep=keep).status == ConflictStatus.RESOLVED


def test_rules_leave_an_unsettled_clash_for_review(store, test_store, space, ontology, minilm):
    memory = memory_of(store, space, ontology, minilm, NEWTON)
    memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    [conflict] = memory.conflicts.list(status="needs_review")
    assert conflict.type == "mutual_exclusion"
    assert {f["state"] for f in facts(test_store, space).values()} == {FactState.ACTIVE}  # no guess
    keep = facts(test_store, space)["Isaac Newton birth date 1643"]["id"]
    with pytest.raises(ValueError, match=r"no proposed verdicts: accept it with keep=FACT_ID \(one of "):
        memory.conflicts.accept(conflict.id)
    assert memory.conflicts.accept(conflict.id, keep=keep[:10]).status == ConflictStatus.RESOLVED
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED
    assert memory.conflicts.reject(conflict.id).status == ConflictStatus.DISMISSED
    assert {f["state"] for f in facts(test_store, space).values()} == {FactState.ACTIVE}


def test_temporal_conflict_keeps_both_with_their_times(store, test_store, space, ontology, minilm):
    script = {"BIDEN": [("Joe Biden", "president_of", "United States", "Person", "Place", "2021-2025")],
              "TRUMP": [("Donald Trump", "president_of", "United States", "Person", "Place", "2017-2021")]}
    _, conflict = only_conflict(store, space, ontology, minilm, script)
    assert (conflict.type, conflict.status) == ("temporal", "resolved")
    stored = facts(test_store, space)
    biden, trump = stored["Joe Biden president of United States (2021-2025)"], \
        stored["Donald Trump president of United States (2017-2021)"]
    assert (biden["state"], biden["valid_from"], biden["valid_to"]) == (FactState.ACTIVE, "2021", "2025")
    assert (trump["state"], trump["valid_from"], trump["valid_to"]) == (FactState.ACTIVE, "2017", "2021")


def test_granularity_conflict_refines_and_keeps_both(store, test_store, space, ontology, minilm):
    script = {"YAO_A": [("Yao Ming", "born_in", "Shanghai", "Person", "Place", None),
                        ("Shanghai", "located_in", "China", "Place", "Place", None)],
              "YAO_B": [("Yao Ming", "born_in", "China", "Person", "Place", None)]}
    memory, conflict = only_conflict(store, space, ontology, minilm, script)
    assert (conflict.type, conflict.status) == ("granularity", "resolved")
    stored = facts(test_store, space)
    assert stored["Yao Ming born in Shanghai"]["state"] == FactState.ACTIVE
    broader = stored["Yao Ming born in broader China"]
    assert broader["state"] == FactState.ACTIVE and broader["relation"] == "born_in_broader"
    assert broader["schema_relation"] == "born_in_broader"  # moved to the refined schema
    memory.conflicts.revert(conflict.id)
    restored = facts(test_store, space)["Yao Ming born in China"]
    assert (restored["relation"], restored["schema_relation"]) == ("born_in", "born_in")


def test_duplicates_merge_into_one_fact_with_both_passages(store, test_store, space, ontology, minilm):
    script = {"CURIE_A": [("Marie Curie", "born_in", "Warsaw", "Person", "Place", None)],
              "CURIE_B": [("Marie Curie", "born_in", "Warsaw", "Person", "Place", "1867")]}
    memory, conflict = only_conflict(store, space, ontology, minilm, script)
    assert (conflict.type, conflict.status) == ("duplicate", "resolved")
    stored = facts(test_store, space)
    kept, merged = stored["Marie Curie born in Warsaw (1867)"], stored["Marie Curie born in Warsaw"]
    assert kept["state"] == FactState.ACTIVE and kept["evidence"] == ["Curie_A", "Curie_B"]
    assert merged["state"] == FactState.SUPERSEDED and merged["evidence"] == ["Curie_A"]
    memory.conflicts.revert(conflict.id)
    assert facts(test_store, space)["Marie Curie born in Warsaw (1867)"]["evidence"] == ["Curie_B"]


def test_names_that_look_like_cypher_stay_data(store, test_store, space, ontology, minilm):
    odd = "Gr'an\"d`ham })-[:X]->(n) DETACH DELETE n //"
    script = {"ODD_A": [("Isaac `Newton'", "born_in", odd, "Person", "Place", None)],
              "ODD_B": [("Isaac `Newton'", "born in", "Woolsthorpe", "Person", "Place", None)]}

    def resolve(shown: dict[str, str]):
        return {"verdicts": [{"fact": label, "verdict": "refine" if "ham" in text else "keep",
                              "relation": "born_in `x` })-[:X]->("} for label, text in shown.items()],
                "confidence": 0.99, "rationale": "'; MATCH (n) DETACH DELETE n //"}
    judge = ScriptedChat(lambda new, candidate: ("granularity", 0.99, "`})"), resolve)
    memory, conflict = only_conflict(store, space, ontology, minilm, script, adjudication_chat=judge)
    assert conflict.status == "resolved"
    stored = facts(test_store, space)
    refined = next(row for text, row in stored.items() if odd in text)
    assert refined["relation"] == "born_in_x_x" and refined["state"] == FactState.ACTIVE
    assert "X" not in {r["type"] for r in test_store.read("relationship_types")}
    assert len(stored) == 2 and memory.stats()["nodes"]["Passage"]["total"] == 2


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "conflicts", *args], capture_output=True,
                          text=True, env=env, timeout=600)


def test_conflicts_cli_reviews_and_reverts(store, test_store, space, ontology, minilm, neo4j_connection):
    memory = memory_of(store, space, ontology, minilm, NEWTON, adjudication=False)
    memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    assert memory.conflicts.list() == []  # adjudication off: nothing checked during ingest
    scan = _cli(neo4j_connection, "scan", "--space", space, "--json")
    assert scan.returncode == 0, scan.stderr
    assert json.loads(scan.stdout)["needs_review"] == 1
    listed = _cli(neo4j_connection, "list", "--space", space, "--status", "needs_review", "--json")
    [row] = json.loads(listed.stdout)
    keep = facts(test_store, space)["Isaac Newton birth date 1643"]["id"]
    accepted = _cli(neo4j_connection, "accept", row["id"], "--space", space, "--keep", keep[:8], "--json")
    assert accepted.returncode == 0, accepted.stderr
    assert json.loads(accepted.stdout)["status"] == "resolved"
    shown = _cli(neo4j_connection, "show", row["id"], "--space", space)
    assert "discarded" in shown.stdout and "Isaac Newton birth date 1645" in shown.stdout
    assert _cli(neo4j_connection, "revert", row["id"], "--space", space).returncode == 0
    assert {f["state"] for f in facts(test_store, space).values()} == {FactState.ACTIVE}
    again = _cli(neo4j_connection, "revert", row["id"], "--space", space)
    assert again.returncode == 1 and "nothing applied to revert" in again.stderr and "Traceback" not in again.stderr
    missing = _cli(neo4j_connection, "show", "nope", "--space", space)
    assert missing.returncode == 1 and "conflict id 'nope' is too short: give at least 6 characters" in missing.stderr
    empty = _cli(neo4j_connection, "list", "--space", f"{space}_none")
    assert empty.returncode == 1 and "empty or does not exist" in empty.stderr
