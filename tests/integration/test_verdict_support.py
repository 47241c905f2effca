"""A schema's support follows the verdicts on its facts (issue 27), against a real Neo4j: a discard takes the
discarded fact's passage off its schema's frequency, a revert gives it back exactly, a verdict can leave a
candidate with no support at all, and a verdict demotes nothing (a clean build promotes, then judges). The
incremental counts after verdicts equal a full recount and a clean build of the same documents."""

from __future__ import annotations

import re

from test_adjudication import ScriptedChat, TimedScript, docs, facts
from test_retraction import _ontology

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import ConflictStatus, FactState
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval.projection import space_prefix

SCRIPT = {  # two birth years of one person (functional: a mutual exclusion), and a third person's
    "NEWTON_A": [("Isaac Newton", "birth_date", "1645", "Person", "Date", None)],
    "NEWTON_B": [("Isaac Newton", "birth_date", "1643", "Person", "Date", None)],
    "LEIBNIZ": [("Gottfried Leibniz", "birth_date", "1646", "Person", "Date", None)],
    "NEWTON_C": [("Isaac Newton", "died_in", "London", "Person", "Place", None)],
    # the same relation with another tail type: another schema, a candidate of its own (one passage)
    "NEWTON_X": [("Isaac Newton", "birth_date", "1645", "Person", "Thing", None)],
}


def judge() -> ScriptedChat:
    """Two Newton birth years clash, nothing else does; 1643 wins."""
    def classify(new: str, candidate: str):
        both = "Newton" in new and "Newton" in candidate and "birth" in new and "birth" in candidate
        return ("mutual_exclusion", 0.95, "two birth years") if both else ("none", 0.95, "unrelated")

    def resolve(shown: dict[str, str]):
        return {"verdicts": [{"fact": label, "verdict": "keep" if "1643" in text else "discard"}
                             for label, text in shown.items()], "confidence": 0.9, "rationale": "1643 is sourced"}
    return ScriptedChat(classify, resolve)


def memory_of(store, space, minilm, threshold: int) -> MemoryGraph:
    return MemoryGraph(space=space, store=store, ontology=_ontology(threshold), embedder=minilm,
                       extractor=TimedScript(SCRIPT), adjudication_chat=judge())


def schemas(test_store, space) -> dict[tuple[str, str], tuple[str, int]]:
    """(relation, tail type) -> (state, frequency)."""
    return {(r["relation"], r["tail_type"]): (r["state"], r["frequency"])
            for r in test_store.read("schemas", space=space)}


def test_a_discard_lowers_the_frequency_and_a_revert_restores_it(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=3)
    memory.ingest(docs("NEWTON_A", "NEWTON_B", "LEIBNIZ"), progress=False)
    [conflict] = memory.conflicts.list()
    assert conflict.status == ConflictStatus.RESOLVED
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED
    # promoted at 3 passages, then judged: NEWTON_A's passage supports birth_date no more; still stable
    assert schemas(test_store, space)[("birth_date", "Date")] == ("stable", 2)
    memory.conflicts.revert(conflict.id)
    assert schemas(test_store, space)[("birth_date", "Date")] == ("stable", 3)
    memory.conflicts.accept(conflict.id)
    assert schemas(test_store, space)[("birth_date", "Date")] == ("stable", 2)
    # the next ingest's promotion and demotion leave it so: under tau by count, but a verdict demotes nothing
    # (its conflict is not closed and applied again either)
    memory.ingest(docs("NEWTON_C"), progress=False)
    after = schemas(test_store, space)
    assert after[("birth_date", "Date")] == ("stable", 2)
    assert [c.status for c in memory.conflicts.list()] == [ConflictStatus.RESOLVED]
    # a full recount counts as the verdicts' recounts did; a clean build of the same documents agrees
    memory.promote()
    assert schemas(test_store, space) == after
    clean = f"{space}_clean"
    try:
        memory_of(store, clean, minilm, threshold=3).ingest(docs("NEWTON_A", "NEWTON_B", "LEIBNIZ", "NEWTON_C"),
                                                             progress=False)
        assert schemas(test_store, clean) == after
    finally:
        delete_space(store, clean, re.escape(space_prefix(clean)) + r"\d+_p.*")


def test_a_verdict_can_leave_a_candidate_without_support(store, test_store, space, minilm):
    """tau 2: birth_date (Person, Date) is stable with two passages; the pending 1645 of the (Person, Thing)
    schema (one passage, candidate) is checked against the active 1643 and discarded: its schema supports
    nothing (frequency 0, still candidate, out of the percentile's count); the revert gives its one passage back."""
    memory = memory_of(store, space, minilm, threshold=2)
    memory.ingest(docs("NEWTON_B", "LEIBNIZ", "NEWTON_X"), progress=False)
    before = {k: v for k, v in schemas(test_store, space).items() if k[0] == "birth_date"}
    assert before == {("birth_date", "Date"): ("stable", 2), ("birth_date", "Thing"): ("candidate", 0)}
    [conflict] = memory.conflicts.list()
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED
    memory.conflicts.revert(conflict.id)
    assert schemas(test_store, space)[("birth_date", "Thing")] == ("candidate", 1)
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.PENDING
    memory.conflicts.accept(conflict.id)
    assert schemas(test_store, space)[("birth_date", "Thing")] == ("candidate", 0)


def test_a_retraction_recounts_with_the_verdicts(store, test_store, space, minilm):
    """Retracting LEIBNIZ recounts birth_date (Person, Date) without the discarded fact's passage: 1 (NEWTON_B),
    not 2; the discard stays applied (its facts are both still evidenced)."""
    memory = memory_of(store, space, minilm, threshold=1)
    memory.ingest(docs("NEWTON_A", "NEWTON_B", "LEIBNIZ"), progress=False)
    assert schemas(test_store, space)[("birth_date", "Date")] == ("stable", 2)
    leibniz = next(d.id for d in memory.documents() if d.title == "Leibniz")
    memory.retract([leibniz])
    assert schemas(test_store, space)[("birth_date", "Date")] == ("stable", 1)
    assert [c.status for c in memory.conflicts.list()] == [ConflictStatus.RESOLVED]


