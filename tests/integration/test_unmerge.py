"""Issue 27: every similarity merge is recorded and reversible (memory/unmerge.py). A memory that merged a
name and then unmerged it is the memory that never merged it (tests/integration/chaos_space.py snapshots),
but for what retraction keeps by design (retracted facts, their obsolete conflicts) and the own entity's
`unmerged_from` record; later mentions of the name resolve to its own entity."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from chaos_space import differences, snapshot, tombstones_out
from test_memory import ScriptedExtractor  # a sibling test module, as chaos_space

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import MemoryConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.unmerge import NotMerged, UnknownName
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval.projection import space_prefix

PERSON_PLACE = ("Person", "Place")
# "obama" joins "Barack Obama" in SECOND (a shared neighbour: Honolulu); THIRD names him both ways in one
# passage, FOURTH states one fact both ways (the old fact keeps that passage's evidence)
SCRIPT = {
    "FIRST": [("Barack Obama", "born in", "Honolulu", *PERSON_PLACE)],
    "SECOND": [("Obama", "president of", "United States", *PERSON_PLACE),
               ("Obama", "visited", "Honolulu", *PERSON_PLACE)],
    "THIRD": [("Barack Obama", "wrote", "Dreams from My Father", "Person", "Work"),
              ("Obama", "visited", "Honolulu", *PERSON_PLACE)],
    "FOURTH": [("Barack Obama", "visited", "Honolulu", *PERSON_PLACE),
               ("Obama", "visited", "Honolulu", *PERSON_PLACE)],
    "FIFTH": [("Obama", "met", "Angela Merkel", "Person", "Person")],
    "ONE": [("Barack Obama", "born in", "Honolulu", *PERSON_PLACE), ("Obama", "visited", "Honolulu", *PERSON_PLACE)],
}
DOCS = ["FIRST Barack Obama was born in Honolulu.",
        "SECOND Obama was president of the United States and visited Honolulu.",
        "THIRD Barack Obama wrote Dreams from My Father. Obama visited Honolulu.",
        "FOURTH Barack Obama visited Honolulu. Obama visited Honolulu."]


@pytest.fixture
def other_space(store):
    name = f"t_{uuid.uuid4().hex[:10]}"
    yield name
    delete_space(store, name, re.escape(space_prefix(name)) + r"\d+_p.*")


@pytest.fixture(scope="module")
def ontology():
    from memgraph_neo4j.memory.ontology import load_ontology

    base = load_ontology()
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 2, "percentile": None})})


def _memory(store, space, ontology, embedder, merge=True):
    config = MemoryConfig() if merge else MemoryConfig(merge_threshold=1.01)  # above 1: no similarity merge
    return MemoryGraph(space=space, store=store, ontology=ontology, embedder=embedder, config=config,
                       extractor=ScriptedExtractor(SCRIPT))


def _ingest(memory, texts, one_batch=False):
    batches = [texts] if one_batch else [[t] for t in texts]
    for batch in batches:
        memory.ingest([Document(text=t) for t in batch], progress=False)


def _without_unmerge_record(snap):
    """The own entity's `unmerged_from` is the one thing a memory that never merged cannot have."""
    for node in list(snap.nodes):
        labels, props = node
        if "Entity" in labels and any(k == "unmerged_from" for k, _ in props):
            count = snap.nodes.pop(node)
            snap.nodes[(labels, tuple((k, v) for k, v in props if k != "unmerged_from"))] += count
    return snap


def _compare(test_store, unmerged, never):
    got = _without_unmerge_record(tombstones_out(snapshot(test_store, unmerged)))
    want = snapshot(test_store, never)
    assert differences(got, want) == []
    assert got.similar.keys() == want.similar.keys()


def test_unmerge_is_the_memory_that_never_merged(store, test_store, space, other_space, minilm, ontology):
    merged = _memory(store, space, ontology, minilm)
    _ingest(merged, DOCS)
    assert [(m["name"], m["entity"]) for m in merged.analytics("entity_merges")] == [("obama", "Barack Obama")]
    # SECOND's two facts, THIRD's and FOURTH's "visited" (FOURTH's stated directly too); their mentions
    assert test_store.read("merged_key_uses", space=space) == [
        {"evidence": 4, "evidence_direct": 1, "mentions": 3, "mentions_direct": 2}]
    report = merged.unmerge("Obama")
    assert (report.entity, report.entity_id, report.joined) == ("Obama", content_hash("obama"), "Barack Obama")
    assert (report.mentions_moved, report.evidence_moved, report.facts_made) == (3, 4, 2)
    assert report.retraction.facts_retracted == 1  # "Barack Obama president of United States": no passage left
    assert merged.analytics("entity_merges") == []
    assert test_store.read("merged_key_uses", space=space) == [
        {"evidence": 0, "evidence_direct": 0, "mentions": 0, "mentions_direct": 0}]
    never = _memory(store, other_space, ontology, minilm, merge=False)
    _ingest(never, DOCS)
    _compare(test_store, space, other_space)


def test_later_mentions_resolve_to_the_own_entity(store, test_store, space, minilm, ontology):
    memory = _memory(store, space, ontology, minilm)
    _ingest(memory, DOCS[:2])
    memory.unmerge("obama")  # any surface form of the name
    assert memory.entity_ids(["Obama", "Barack Obama"]) == {"Obama": content_hash("obama"),
                                                           "Barack Obama": content_hash("barack obama")}
    _ingest(memory, ["FIFTH Obama met Angela Merkel."])
    people = {p["name"]: p["facts"] for p in test_store.read("entities_of_type", space=space, type="Person")}
    assert people == {"Barack Obama": 3, "Obama": 3, "Angela Merkel": 1}  # with the 2 retracted by the unmerge
    live = [(f["head"], f["relation"], f["tail"]) for f in test_store.read("facts_by_relation", space=space)
            if f["state"] != "retracted"]
    assert sorted(live) == [("Barack Obama", "born_in", "Honolulu"), ("Obama", "met", "Angela Merkel"),
                            ("Obama", "president_of", "United States"), ("Obama", "visited", "Honolulu")]
    assert memory.analytics("entity_merges") == []


def test_bad_names_change_nothing(store, test_store, space, minilm, ontology):
    memory = _memory(store, space, ontology, minilm)
    _ingest(memory, DOCS[:2])
    before = snapshot(test_store, space)
    with pytest.raises(UnknownName, match="no entity is named 'Michelle Obama'.*analytics entity_merges"):
        memory.unmerge("Michelle Obama")
    with pytest.raises(NotMerged, match="own name of entity 'Barack Obama'.*analytics entity_merges"):
        memory.unmerge("Barack Obama")
    with pytest.raises(ValueError):
        memory.unmerge("  ")
    assert differences(snapshot(test_store, space), before) == []


def test_a_merge_within_one_batch_is_undone_too(store, test_store, space, other_space, minilm, ontology):
    """Both names new in one ingest (the same document is the evidence)."""
    text = ["ONE Barack Obama was born in Honolulu. Obama visited Honolulu."]
    merged = _memory(store, space, ontology, minilm)
    _ingest(merged, text)
    assert [(m["name"], m["evidence"]) for m in merged.analytics("entity_merges")] == [("obama", "same document")]
    merged.unmerge("Obama")
    never = _memory(store, other_space, ontology, minilm, merge=False)
    _ingest(never, text)
    _compare(test_store, space, other_space)


def test_a_second_unmerge_finishes_and_changes_nothing(store, test_store, space, minilm, ontology):
    """A rerun (after a run that died past its transaction) runs the remaining steps only."""
    memory = _memory(store, space, ontology, minilm)
    _ingest(memory, DOCS[:2])
    memory.unmerge("Obama")
    before = snapshot(test_store, space)
    assert memory.unmerge("Obama").finished
    assert differences(snapshot(test_store, space), before) == []


def test_the_cli_unmerges_and_says_what_is_wrong(store, space, minilm, ontology, neo4j_connection):
    from typer.testing import CliRunner

    from memgraph_neo4j.cli.main import app

    _ingest(_memory(store, space, ontology, minilm), DOCS[:2])
    env = {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
           "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database}
    runner = CliRunner()
    bad = runner.invoke(app, ["entities", "unmerge", "Michelle Obama", "--space", space], env=env)
    assert bad.exit_code == 1 and "no entity is named 'Michelle Obama'" in bad.output
    done = runner.invoke(app, ["entities", "unmerge", "Obama", "--space", space, "--json"], env=env)
    assert done.exit_code == 0, (done.output, done.exception)
    report = json.loads(done.stdout)
    assert (report["entity"], report["joined"], report["mentions_moved"]) == ("Obama", "Barack Obama", 1)
