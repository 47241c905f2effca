"""Conflicts and refined schemas across a retraction, against a real Neo4j: retracting documents and
ingesting them again gives back what the build before gave (conflicts by id with their type, status,
verdicts and pairs; fact states; schema frequency and state), a refine verdict's schema is counted and
promoted like any other, a person's review outlives a retraction, and `stats` counts conflicts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from test_adjudication import TimedScript, facts
from test_retraction import _ontology

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import ConflictStatus, FactState
from memgraph_neo4j.demo.scenario import corpus_files
from memgraph_neo4j.ingest.readers import Document

SCRIPT = {  # one mutual exclusion (no rule settles it), one temporal change, one value at two levels
    "TURING_A": [("Alan Turing", "birth_date", "1912", "Person", "Date", None)],
    "TURING_B": [("Alan Turing", "birth_date", "1913", "Person", "Date", None)],
    "MS_A": [("Microsoft", "headquartered_in", "Albuquerque", "Organization", "Place", "1975")],
    "MS_B": [("Microsoft", "headquartered_in", "Redmond", "Organization", "Place", "1986")],
    "YAO_A": [("Yao Ming", "born_in", "Shanghai", "Person", "Place", None),
              ("Shanghai", "located_in", "China", "Place", "Place", None)],
    "YAO_B": [("Yao Ming", "born_in", "China", "Person", "Place", None)],
    "LI_A": [("Li Na", "born_in", "Shanghai", "Person", "Place", None)],
    "LI_B": [("Li Na", "born_in", "China", "Person", "Place", None)],
}


def docs(*keys: str) -> list[Document]:
    return [Document(title=k, text=f"{k} passage.") for k in keys]


def memory_of(store, space, minilm, threshold: int) -> MemoryGraph:
    return MemoryGraph(space=space, store=store, ontology=_ontology(threshold), embedder=minilm,
                       extractor=TimedScript(SCRIPT))


def snapshot(memory: MemoryGraph, test_store) -> dict:
    """Conflicts by id (type, status, each fact's state, proposal and whether it is applied, the
    CONFLICTS_WITH pairs), schemas by id (relation, state, frequency), facts by id (state, relation, schema),
    and the counts per label and relationship type."""
    space = memory.space
    row = test_store.read("schema_snapshot", space=space)[0]
    stats = memory.stats()
    return {"conflicts": {c["id"]: (c["type"], c["status"], c["facts"], c["pairs"])
                          for c in test_store.read("conflict_snapshot", space=space)},
            "schemas": {s[0]: tuple(s[1:]) for s in row["schemas"]},
            "facts": {f[0]: tuple(f[1:]) for f in row["facts"]},
            "nodes": stats["nodes"], "relationships": stats["relationships"]}


def schema(snap: dict, relation: str) -> tuple:
    [found] = [s for s in snap["schemas"].values() if s[0] == relation]
    return found[1:]


def active_under_candidate(snap: dict) -> list[str]:
    return [f for f, (state, _, schema_id) in snap["facts"].items()
            if state == FactState.ACTIVE and snap["schemas"][schema_id][1] == "candidate"]


def test_retract_and_reingest_gives_back_the_conflicts_and_schemas(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=1)
    memory.ingest(docs("TURING_A", "MS_A", "YAO_A", "TURING_B", "MS_B", "YAO_B"), progress=False)
    clean = snapshot(memory, test_store)
    assert sorted((c[0], c[1]) for c in clean["conflicts"].values()) == [
        ("granularity", "resolved"), ("mutual_exclusion", "needs_review"), ("temporal", "resolved")]
    # the refined schema is counted from the passage that supports its fact, not left at 0
    assert schema(clean, "born_in_broader") == ("stable", 1)
    assert schema(clean, "born_in") == ("stable", 1)  # YAO_B's passage supports the refined fact now
    assert clean["nodes"]["Conflict"] == {"total": 3, "by_state": {"needs_review": 1, "resolved": 2}}

    report = memory.retract([d.id for d in docs("TURING_B", "MS_B", "YAO_B")])
    assert report.conflicts_obsolete == 3
    after = snapshot(memory, test_store)
    assert {c[1] for c in after["conflicts"].values()} == {ConflictStatus.OBSOLETE}
    assert after["nodes"]["Conflict"] == {"total": 3, "by_state": {"obsolete": 3}}
    assert schema(after, "born_in_broader") == ("candidate", 0)  # lost its support: demoted

    again = memory.ingest(docs("TURING_B", "MS_B", "YAO_B"), progress=False)
    assert (again.conflicts, again.conflicts_resolved, again.conflicts_to_review) == (3, 2, 1)
    assert snapshot(memory, test_store) == clean
    assert len(memory.conflicts.list(ConflictStatus.NEEDS_REVIEW)) == 1


def test_demo_corpus_retract_and_reingest_gives_back_the_clean_build(store, test_store, space, minilm):
    """The demo's contradiction, change over time and refine (Marie Curie Warsaw/Poland) under the bundled
    ontology's percentile rule: retract every document a conflict's facts come from, ingest the corpus again."""
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline")
    memory.ingest(corpus_files(), progress=False)
    clean = snapshot(memory, test_store)
    assert clean["nodes"]["Conflict"]["by_state"] == {"needs_review": 1, "resolved": 2}
    assert schema(clean, "born_in_broader")[1] == 1  # marie-curie.md supports "Marie Curie born in broader Poland"
    assert active_under_candidate(clean) == []
    carrying = sorted({d for c in test_store.read("conflict_snapshot", space=space) for d in c["documents"]})
    assert len(carrying) >= 4

    memory.retract(carrying)
    again = memory.ingest(corpus_files(), progress=False)
    assert again.conflicts_to_review == 1 == len(memory.conflicts.list(ConflictStatus.NEEDS_REVIEW))
    restored = snapshot(memory, test_store)
    assert restored["conflicts"] == clean["conflicts"]
    assert restored["schemas"] == clean["schemas"] and restored["facts"] == clean["facts"]
    assert restored == clean


def test_a_refined_schema_follows_the_promotion_rule(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=2)
    memory.ingest(docs("YAO_A", "YAO_B"), progress=False)  # born_in: 2 passages, stable
    [conflict] = memory.conflicts.list()
    snap = snapshot(memory, test_store)
    assert conflict.status == ConflictStatus.RESOLVED and schema(snap, "born_in_broader") == ("candidate", 1)
    stored = facts(test_store, space)
    assert stored["Yao Ming born in broader China"]["state"] == FactState.PENDING  # below tau = 2: waits
    assert active_under_candidate(snap) == []

    memory.ingest(docs("LI_A", "LI_B"), progress=False)  # a second refine into the same schema: support 2
    snap = snapshot(memory, test_store)
    assert schema(snap, "born_in_broader") == ("stable", 2)
    stored = facts(test_store, space)
    assert {stored[t]["state"] for t in ("Yao Ming born in broader China", "Li Na born in broader China")} == {
        FactState.ACTIVE}

    yao = next(c for c in memory.conflicts.list() if any("Yao" in f for f in c.facts))
    memory.conflicts.revert(yao.id)  # the fact goes back to born_in: both schemas recounted
    snap = snapshot(memory, test_store)
    assert schema(snap, "born_in_broader") == ("stable", 1)  # stable is only demoted by a retraction
    assert schema(snap, "born_in") == ("stable", 3)  # YAO_A, YAO_B, LI_A (LI_B's fact stays broader)


def test_a_persons_review_outlives_retract_and_reingest(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=1)
    memory.ingest(docs("TURING_A", "TURING_B", "MS_A", "MS_B"), progress=False)
    turing = next(c for c in memory.conflicts.list() if c.type == "mutual_exclusion")
    moves = next(c for c in memory.conflicts.list() if c.type == "temporal")
    stored = facts(test_store, space)
    kept = stored["Alan Turing birth date 1912"]["id"]
    memory.conflicts.accept(turing.id, keep=kept)  # a person settles what no rule could
    memory.conflicts.reject(moves.id)  # and says the two headquarters are no conflict: nothing qualified
    assert facts(test_store, space)["Microsoft headquartered in Redmond (1986)"]["valid_from"] is None

    memory.retract([d.id for d in docs("TURING_A", "MS_B")])  # the kept fact's document, one of the moves
    assert memory.conflicts.show(turing.id).status == ConflictStatus.OBSOLETE
    assert facts(test_store, space)["Alan Turing birth date 1913"]["state"] == FactState.ACTIVE  # discard undone
    # a dismissed conflict of a retracted fact is closed too, the person's review kept on it
    assert (memory.conflicts.show(moves.id).status, memory.conflicts.show(moves.id).review) == (
        ConflictStatus.OBSOLETE, "rejected")

    report = memory.ingest(docs("TURING_A", "MS_B"), progress=False)
    # back as the person left them: their verdict applied again, the dismissal kept (the rules would qualify)
    assert memory.conflicts.show(turing.id).status == ConflictStatus.RESOLVED
    assert memory.conflicts.show(moves.id).status == ConflictStatus.DISMISSED
    assert (memory.conflicts.show(turing.id).review, memory.conflicts.show(moves.id).review) == ("accepted",
                                                                                                "rejected")
    stored = facts(test_store, space)
    assert stored["Alan Turing birth date 1912"]["state"] == FactState.ACTIVE
    assert stored["Alan Turing birth date 1913"]["state"] == FactState.DISCARDED
    assert stored["Microsoft headquartered in Redmond (1986)"]["valid_from"] is None
    assert (report.conflicts, report.conflicts_resolved, report.conflicts_to_review) == (2, 1, 0)  # both back
    # a rescan does not override them either
    memory.adjudicate(rescan_all=True)
    assert memory.conflicts.show(moves.id).status == ConflictStatus.DISMISSED
    assert facts(test_store, space)["Microsoft headquartered in Redmond (1986)"]["valid_from"] is None


def _stats_cli(connection, space: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "stats", "--space", space, *args],
                          capture_output=True, text=True, env=env, timeout=600)


def test_stats_count_conflicts_by_status(store, space, minilm, neo4j_connection):
    memory = memory_of(store, space, minilm, threshold=1)
    memory.ingest(docs("TURING_A", "TURING_B", "MS_A", "MS_B"), progress=False)
    assert memory.stats()["nodes"]["Conflict"] == {"total": 2, "by_state": {"needs_review": 1, "resolved": 1}}
    memory.retract(docs("TURING_B")[0].id)
    expected = {"total": 2, "by_state": {"obsolete": 1, "resolved": 1}}
    assert memory.stats()["nodes"]["Conflict"] == expected
    as_json = _stats_cli(neo4j_connection, space, "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["nodes"]["Conflict"] == expected
    text = _stats_cli(neo4j_connection, space)
    assert text.returncode == 0, text.stderr
    [row] = [line for line in text.stdout.splitlines() if "Conflict" in line]
    assert "obsolete: 1" in row and "resolved: 1" in row and " 2 " in row


def test_a_verdict_undone_by_a_retraction_leaves_no_active_fact_under_a_candidate(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=2)
    memory.ingest(docs("YAO_A", "YAO_B", "LI_A"), progress=False)  # refine: Yao born in broader China
    memory.retract(docs("LI_A")[0].id)  # born_in: Shanghai, and China refined off it: support 2, stays stable
    assert schema(snapshot(memory, test_store), "born_in") == ("stable", 1)
    clean = memory_of(store, f"{space}_clean", minilm, threshold=2)
    try:  # as a clean build of the two Yao documents leaves it (the refine took no evidence from born_in)
        clean.ingest(docs("YAO_A", "YAO_B"), progress=False)
        assert schema(snapshot(clean, test_store), "born_in") == ("stable", 1)
    finally:
        clean.delete()
    memory.retract(docs("YAO_A")[0].id)  # the finer value goes: the refine is undone, China back under born_in
    snap = snapshot(memory, test_store)
    assert facts(test_store, space)["Yao Ming born in China"]["state"] == FactState.PENDING
    assert active_under_candidate(snap) == []
