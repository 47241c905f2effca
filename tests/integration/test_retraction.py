"""Retracting documents against a real Neo4j: their passages go, facts left without evidence are kept
as `retracted`, schemas that lose their support fall back to candidate, conflicts of retracted facts
become obsolete and the facts they judged are checked again; ingesting the documents again restores
the memory exactly. Extractors and the judge are scripted."""

from __future__ import annotations

import re

import pytest
from test_adjudication import ScriptedChat, TimedScript, facts
from test_memory import ScriptedExtractor

from memgraph_neo4j.adjudication import ConflictError
from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import ConflictStatus, FactState
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.health import HealthRepository


def _ontology(threshold: int):
    base = load_ontology()
    return base.model_copy(update={"promotion": base.promotion.model_copy(
        update={"threshold": threshold, "percentile": None})})


def snapshot(memory: MemoryGraph, test_store) -> dict:
    """What must come back after retract + re-ingest: nodes per label and state, conflicts by status,
    relationships per type, every schema's state and frequency, every fact's state."""
    stats = memory.stats()
    return {"nodes": stats["nodes"], "relationships": stats["relationships"],
            "conflicts": sorted(c.status for c in memory.conflicts.list(limit=1000)),
            "schemas": sorted((r["head_type"], r["relation"], r["tail_type"], r["state"], r["frequency"])
                              for r in test_store.read("schemas", space=memory.space)),
            "facts": sorted((f["head"], f["relation"], f["tail"], f["state"])
                            for f in test_store.read("facts_by_relation", space=memory.space))}


LONG_B = " ".join(["DOC_B Grace Hopper served in the US Navy and knew Ada Lovelace's work."] * 40)
SCRIPT = {
    "DOC_A": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization"),
              ("Ada Lovelace", "knows", "Charles Babbage", "Person", "Person")],
    "DOC_B": [("Grace Hopper", "works for", "US Navy", "Person", "Organization"),
              ("Grace Hopper", "knows", "Ada Lovelace", "Person", "Person")],
    "DOC_C": [("Alan Turing", "works for", "Bletchley Park", "Person", "Organization")],
}
DOCS = [Document(title="A", text="DOC_A Ada Lovelace worked with Charles Babbage."),
        Document(title="B", text=LONG_B),  # several passages, linked by NEXT
        Document(title="C", text="DOC_C Alan Turing worked at Bletchley Park.")]


def test_retract_then_reingest_restores_the_memory(store, test_store, space, minilm):
    memory = MemoryGraph(space=space, store=store, ontology=_ontology(2), embedder=minilm,
                         extractor=ScriptedExtractor(SCRIPT))
    memory.ingest(DOCS, progress=False)
    original = snapshot(memory, test_store)
    b_passages = original["nodes"]["Passage"]["total"] - 2
    assert b_passages >= 2 and original["relationships"]["NEXT"] == b_passages - 1
    schemas = {s[1]: s for s in original["schemas"]}
    assert schemas["knows"][3:] == ("stable", 1 + b_passages)  # A's passage and B's
    grace = next(f for f in facts(test_store, space).values() if f["text"].startswith("Grace Hopper employed"))
    version = store.read("memory/memory_version", space=space)[0]["version"]

    report = memory.retract([DOCS[1].id])
    assert (report.documents, report.passages, report.facts_retracted) == (1, b_passages, 2)
    assert (report.schemas_demoted, report.facts_deactivated) == (1, 1)  # knows; Ada knows Babbage
    assert report.entities_deleted == 2  # Grace Hopper and US Navy: nothing live names them now
    # stamped steps, each a version of its own (repository/documents.py); the report has the last
    assert report.version > version
    assert report.version == store.read("memory/memory_version", space=space)[0]["version"]
    after = snapshot(memory, test_store)
    assert after["nodes"]["Passage"]["total"] == 2 and "NEXT" not in after["relationships"]
    assert sorted(d.title for d in memory.documents()) == ["A", "C"]
    schemas = {s[1]: s for s in after["schemas"]}
    assert schemas["knows"][3:] == ("candidate", 1)  # below tau = 2: back to candidate
    assert schemas["employed_by"][3:] == ("stable", 2)  # A and C still support it
    assert after["facts"] == [
        ("Ada Lovelace", "employed_by", "Analytical Society", "active"),
        ("Ada Lovelace", "knows", "Charles Babbage", "pending"),  # its schema was demoted
        ("Alan Turing", "employed_by", "Bletchley Park", "active"),
        ("Grace Hopper", "employed_by", "US Navy", "retracted"),  # kept, without evidence
        ("Grace Hopper", "knows", "Ada Lovelace", "retracted")]
    people = {e["name"] for e in test_store.read("entities_of_type", space=space, type="Person")}
    assert people == {"Ada Lovelace", "Charles Babbage", "Alan Turing"}  # Ada is still grounded by A
    # their names (their own keys: no Alias node) go with them
    assert memory.entity_ids(["Grace Hopper", "US Navy"]) == {"Grace Hopper": None, "US Navy": None}
    assert "Alias" not in after["nodes"] and "Alias" not in original["nodes"]  # no name merged by similarity
    assert HealthRepository(store, space).facts_without_evidence() == 0  # retracted facts are expected
    provenance = memory.provenance(grace["id"])
    assert provenance.state == FactState.RETRACTED and provenance.evidence_count == 0
    # retrieval reads neither the retracted passages nor the retracted facts
    found = memory.search("Where did Grace Hopper serve?", method="memgraphrag", top_k=5)
    assert all("DOC_B" not in p.text for p in found.passages)
    assert all(f.id != grace["id"] for f in found.facts)

    memory.ingest([DOCS[1]], progress=False)  # the same document again: re-extracted, facts restored
    assert snapshot(memory, test_store) == original
    assert memory.provenance(grace["id"]).state == FactState.ACTIVE


def test_a_fact_with_other_evidence_stays(store, test_store, space, minilm):
    script = {"FIRST": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization")],
              "SECOND": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization")]}
    memory = MemoryGraph(space=space, store=store, ontology=_ontology(2), embedder=minilm,
                         extractor=ScriptedExtractor(script))
    first, second = Document(title="1", text="FIRST Ada Lovelace."), Document(title="2", text="SECOND Ada again.")
    memory.ingest([first, second], progress=False)
    report = memory.retract(second.id)
    assert (report.facts_retracted, report.schemas_demoted, report.entities_deleted) == (0, 1, 0)
    [fact] = facts(test_store, space).values()
    assert (fact["state"], fact["evidence"]) == (FactState.PENDING, ["1"])  # one passage left: below tau = 2
    with pytest.raises(ValueError, match="no document"):
        memory.retract(second.id)  # already gone: nothing is changed


def test_retraction_rerun_finishes_a_half_done_job(store, test_store, space, minilm):
    memory = MemoryGraph(space=space, store=store, ontology=_ontology(2), embedder=minilm,
                         extractor=ScriptedExtractor(SCRIPT))
    memory.ingest(DOCS, progress=False)
    original = snapshot(memory, test_store)
    # the process died right after step 1: the passages are gone and their marks are set, nothing else
    documents = memory_documents(memory)
    documents.delete_passages(documents.passages_of([DOCS[1].id]))
    assert test_store.read("retracting_marks", space=space)[0]["marks"] > 0
    report = memory.retract([DOCS[1].id])  # running it again finishes the job
    assert (report.passages, report.facts_retracted, report.schemas_demoted) == (0, 2, 1)
    assert test_store.read("retracting_marks", space=space)[0]["marks"] == 0
    memory.ingest([DOCS[1]], progress=False)
    assert snapshot(memory, test_store) == original


def memory_documents(memory: MemoryGraph):
    from memgraph_neo4j.repository.documents import DocumentRepository

    return DocumentRepository(memory.store, memory.space)


def _year(text: str) -> int:
    return int(re.search(r"\b(1\d{3})\b", text).group(1))


def earliest_year_judge() -> ScriptedChat:
    """Classifies every pair as a clash of birth years; resolves a group by keeping the earliest year."""
    def resolve(shown: dict[str, str]):
        keep = min(shown, key=lambda label: _year(shown[label]))
        return {"verdicts": [{"fact": label, "verdict": "keep" if label == keep else "discard"} for label in shown],
                "confidence": 0.9, "rationale": "the earliest record wins"}
    return ScriptedChat(lambda new, candidate: ("mutual_exclusion", 0.95, "one person, two birth years"), resolve)


NEWTON = {f"NEWTON_{year}": [("Isaac Newton", "birth_date", str(year), "Person", "Date", None)]
          for year in (1642, 1643, 1645)}


def newton_docs(*years: int) -> list[Document]:
    return [Document(title=str(y), text=f"NEWTON_{y} passage about Isaac Newton.") for y in years]


def test_conflict_of_a_retracted_fact_is_obsolete_and_comes_back(store, test_store, space, minilm):
    memory = MemoryGraph(space=space, store=store, ontology=_ontology(1), embedder=minilm,
                         extractor=TimedScript(NEWTON), adjudication_chat=earliest_year_judge())
    memory.ingest(newton_docs(1643, 1645), progress=False)
    [conflict] = memory.conflicts.list()
    assert conflict.status == ConflictStatus.RESOLVED
    original = snapshot(memory, test_store)
    assert original["conflicts"] == [ConflictStatus.RESOLVED]

    report = memory.retract(newton_docs(1643)[0].id)  # the winner's document
    assert (report.facts_retracted, report.conflicts_obsolete, report.facts_rechecked) == (1, 1, 1)
    assert memory.conflicts.show(conflict.id).status == ConflictStatus.OBSOLETE
    states = {t: f["state"] for t, f in facts(test_store, space).items()}
    assert states == {"Isaac Newton birth date 1643": FactState.RETRACTED,
                      "Isaac Newton birth date 1645": FactState.ACTIVE}  # its discard was undone
    assert report.adjudication.scanned == 1 and report.adjudication.conflicts == 0  # nothing left to clash with
    with pytest.raises(ConflictError, match="obsolete"):
        memory.conflicts.accept(conflict.id)

    memory.ingest(newton_docs(1643), progress=False)  # evidenced again: the same conflict, resolved again
    assert snapshot(memory, test_store) == original
    assert memory.conflicts.show(conflict.id).status == ConflictStatus.RESOLVED


def test_surviving_facts_of_an_obsolete_conflict_are_judged_again(store, test_store, space, minilm):
    memory = MemoryGraph(space=space, store=store, ontology=_ontology(1), embedder=minilm,
                         extractor=TimedScript(NEWTON), adjudication_chat=earliest_year_judge())
    memory.ingest(newton_docs(1642, 1643, 1645), progress=False)
    [conflict] = memory.conflicts.list()
    assert len(conflict.facts) == 3
    assert {t: f["state"] for t, f in facts(test_store, space).items()}["Isaac Newton birth date 1642"] == "active"

    report = memory.retract(newton_docs(1642)[0].id)
    assert (report.conflicts_obsolete, report.facts_rechecked) == (1, 2)
    assert report.adjudication.conflicts == 1 and report.adjudication.resolved == 1
    statuses = sorted(c.status for c in memory.conflicts.list())
    assert statuses == [ConflictStatus.OBSOLETE, ConflictStatus.RESOLVED]
    states = {t: f["state"] for t, f in facts(test_store, space).items()}
    assert states == {"Isaac Newton birth date 1642": FactState.RETRACTED,
                      "Isaac Newton birth date 1643": FactState.ACTIVE,  # the earliest year left wins now
                      "Isaac Newton birth date 1645": FactState.DISCARDED}


DEMOTED = {"ALPHA": [("Ada Byron", "born in", "London", "Person", "City"),
                     ("Ada Byron", "born in", "Paris", "Person", "City")],
           "BETA": [("Bob Stone", "born in", "Rome", "Person", "City")]}


def test_a_demoted_schema_s_conflicts_close_as_a_clean_build_never_had_them(store, test_store, space, minilm):
    """ALPHA states two birthplaces (a mutual-exclusion conflict to review) under the schema BETA lifts to
    tau 2. Retracting BETA demotes the schema and makes ALPHA's facts pending: a clean build of ALPHA alone
    never checks them, so the conflict must not wait for review. Before, it stayed `needs_review` over two
    pending facts."""
    alpha = Document(id="alpha", text="ALPHA Ada Byron was born in London. Ada Byron was born in Paris.")
    beta = Document(id="beta", text="BETA Bob Stone was born in Rome.")

    def memory_of(name: str) -> MemoryGraph:
        return MemoryGraph(space=name, store=store, ontology=_ontology(2), embedder=minilm,
                           extractor=ScriptedExtractor(DEMOTED))

    memory = memory_of(space)
    memory.ingest([alpha, beta], progress=False)
    assert [(c.type, c.status) for c in memory.conflicts.list()] == [("mutual_exclusion", "needs_review")]
    report = memory.retract(["beta"])
    assert (report.schemas_demoted, report.facts_deactivated, report.conflicts_obsolete) == (1, 2, 1)
    assert [c.status for c in memory.conflicts.list()] == ["obsolete"]
    clean = memory_of(f"{space}_clean")
    try:
        clean.ingest([alpha], progress=False)
        assert clean.conflicts.list() == []
        after, built = snapshot(memory, test_store), snapshot(clean, test_store)
        assert [f for f in after["facts"] if f[3] != "retracted"] == built["facts"]  # both pending
        memory.ingest([beta], progress=False)  # support back: promoted, checked, the conflict detected again
        assert [(c.type, c.status) for c in memory.conflicts.list()] == [("mutual_exclusion", "needs_review")]
    finally:
        clean.delete()
