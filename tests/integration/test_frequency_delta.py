"""A batch's promotion counts schema support from what the batch wrote, and it equals a full recount.

A schema's frequency (distinct passages of its facts in a supporting state: Algorithm 1's measure) was
recounted over every fact of each schema a batch touched: 95 ms per 256-passage batch on MuSiQue, 1.45 s at
54k passages, growing with the memory. Now a stamped batch adds the passages that support a schema now and
did not before (cypher/memory/promote_frequency_delta), after recounting whole what an earlier unpromoted
write left (promote_frequency_stale). The property test (test_read_after_write_property) checks the same
equality after every step of random interleavings.
"""

from __future__ import annotations

import pytest
from test_memory import ScriptedExtractor, _memory, threshold_ontology  # noqa: F401  (the fixture)

from memgraph_neo4j.contracts import ExtractionInput, supporting
from memgraph_neo4j.ingest.pipeline import document_rows, passage_rows
from memgraph_neo4j.ingest.readers import Document

SCRIPT = {
    "P1": [("Sicily", "part of", "Italy", "Place", "Place"), ("Sicily", "part of", "Europe", "Place", "Place")],
    "P2": [("Sicily", "part of", "Italy", "Place", "Place")],  # a fact again, from a new passage
    "P3": [("Bavaria", "part of", "Germany", "Place", "Place")],  # P3 and P4 in one batch: one new fact, 2 passages
    "P4": [("Bavaria", "part of", "Germany", "Place", "Place"), ("Ada Lovelace", "knows", "Charles Babbage",
                                                                 "Person", "Person")],
    "P5": [("Sicily", "part of", "Italy", "Place", "Place"), ("Sicily", "part of", "Europe", "Place", "Place")],
}


def assert_exact(test_store, space: str, expected: dict[str, int]) -> None:
    rows = test_store.read("schema_frequency_recount", space=space, supporting=supporting())
    assert [(r["relation"], r["frequency"]) for r in rows] == [(r["relation"], r["recount"]) for r in rows]
    assert {r["relation"]: r["frequency"] for r in rows} == expected


@pytest.mark.parametrize("batch_size", [1, 2])
def test_batch_frequencies_equal_a_full_recount(store, test_store, space, minilm, threshold_ontology,  # noqa: F811
                                                batch_size):
    memory = _memory(store, space, threshold_ontology, minilm, SCRIPT)
    docs = {k: Document(text=f"{k} text") for k in SCRIPT}

    def ingest(*keys):
        memory.ingest([docs[k] for k in keys], batch_size=batch_size, progress=False)

    ingest("P1")  # two facts of one schema in one passage: one passage of support
    assert_exact(test_store, space, {"part_of": 1})
    ingest("P2")  # an existing fact evidenced again by a new passage
    assert_exact(test_store, space, {"part_of": 2})
    ingest("P3", "P4")
    assert_exact(test_store, space, {"part_of": 4, "knows": 1})
    memory.retract([docs["P2"].id])  # retraction recounts (retract_recount); the fact keeps P1
    assert_exact(test_store, space, {"part_of": 3, "knows": 1})
    memory.retract([docs["P1"].id])  # Sicily's two facts lose their last passage: retracted
    assert_exact(test_store, space, {"part_of": 2, "knows": 1})
    ingest("P5")  # both revived by a new passage
    assert_exact(test_store, space, {"part_of": 3, "knows": 1})
    ingest("P1", "P2")  # written again: P1's facts exist (revived), P2 adds nothing new to the facts
    assert_exact(test_store, space, {"part_of": 5, "knows": 1})


def test_an_earlier_unpromoted_write_is_recounted_before_the_delta(store, test_store, space, minilm,
                                                                   threshold_ontology):  # noqa: F811
    """A batch written without promotion (a conversation's first step, a killed run) leaves Unpromoted facts
    whose support was never counted; the next promoting batch recounts their schemas first, then its delta
    (here on the same schema, with a fact of the earlier batch evidenced again) lands on exact counts."""
    memory = _memory(store, space, threshold_ontology, minilm, SCRIPT)

    def write(key: str, promote: bool, extractor=memory.extractor, new: bool = True):
        doc = Document(text=f"{key} text", title=key, metadata={"single_passage": True})
        passages = passage_rows([doc], 512, 0)
        inputs = [ExtractionInput(passage_id=p.id, doc_id=p.doc_id, text=p.text, title=p.title) for p in passages]
        return memory.writer.write_batch(extractor.extract(inputs, None), promote=promote,
                                         documents=document_rows([doc]) if new else [],
                                         passages=passages if new else [])

    write("P1", promote=False)
    assert test_store.read("schema_frequency_recount", space=space, supporting=supporting())[0]["frequency"] == 0
    assert write("P2", promote=True).facts == 1
    assert_exact(test_store, space, {"part_of": 2})
    # P1's passage states another fact of the schema it supports already (a passage extracted again): no
    # new support, although the fact and its evidence are new
    again = ScriptedExtractor({"P1": [("Sicily", "part of", "Mediterranean", "Place", "Place")]})
    assert write("P1", promote=True, extractor=again, new=False).facts == 1
    assert_exact(test_store, space, {"part_of": 2})


def _db_hits(plan) -> int:
    return plan.get("dbHits", 0) + sum(_db_hits(child) for child in plan.get("children", []))


def _profiled(store, name: str, space: str, stamp: int) -> tuple[int, int]:
    """One library statement under PROFILE, rolled back: (the schema's new frequency, total db hits)."""
    text = store.cypher.get(name)

    with store.driver.session(database=store.database) as session:
        tx = session.begin_transaction()
        try:
            result = tx.run("PROFILE " + text, space=space, stamp=stamp, supporting=supporting())
            result.consume()
            hits = _db_hits(result.consume().profile)
            frequency = tx.run("MATCH (s:Schema {space: $space}) RETURN s.frequency AS f", space=space).single()["f"]
        finally:
            tx.rollback()
    return frequency, hits


def test_the_delta_reads_what_the_batch_wrote_not_the_schemas_facts(store, test_store, space):
    hits = {}
    for facts in (100, 2_000):
        part = f"{space}_{facts}"
        try:
            test_store.write("frequency_delta_load", space=part, facts=facts, stamp=7)
            delta = _profiled(store, "memory/promote_frequency_delta", part, 7)
            whole = _profiled(store, "memory/promote_frequency_of", part, 7)
            assert delta[0] == whole[0] == facts + 1
            hits[facts] = delta[1], whole[1]
        finally:
            test_store.run_implicit("delete_space_unlocked", space=part)
    # the full recount reads every fact of the schema (20x the facts: ~20x the hits); the delta the batch's
    assert hits[2_000][1] > 10 * hits[100][1], hits
    assert hits[2_000][0] <= hits[100][0] + 10, hits
