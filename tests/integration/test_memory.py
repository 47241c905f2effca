"""The global memory in Neo4j: passages, facts, schemas, promotion, entity resolution, failures."""

from __future__ import annotations

import pytest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionInput, ExtractionOutcome
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology


class ScriptedExtractor:
    """Deterministic stand-in for the LLM: facts keyed by a marker word in the chunk."""

    name = "scripted"

    def __init__(self, script: dict[str, list[tuple[str, str, str, str, str]] | Exception]) -> None:
        self.script = script
        self.calls: list[str] = []

    def extract(self, items: list[ExtractionInput], guide) -> list[ExtractionOutcome]:
        out = []
        for item in items:
            self.calls.append(item.text)
            key = next((k for k in self.script if k in item.text), None)
            entry = self.script.get(key, [])
            if isinstance(entry, Exception):
                out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, error=str(entry),
                                             attempts=3, extractor=self.name))
                continue
            facts = [ExtractedFact(head=h, relation=r, tail=t, head_type=ht, tail_type=tt) for h, r, t, ht, tt in entry]
            entities = [ExtractedEntity(name=f.head, type=f.head_type) for f in facts]
            out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id,
                                         extraction=Extraction(entities=entities, facts=facts), extractor=self.name,
                                         model="script-1", prompt_version="test"))
        return out


@pytest.fixture(scope="session")
def threshold_ontology():
    base = load_ontology()
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 2, "percentile": None})})


def _memory(store, space, ontology, embedder, script):
    return MemoryGraph(space=space, store=store, ontology=ontology, embedder=embedder,
                       extractor=ScriptedExtractor(script))


def _facts(store, test_store, space):
    return test_store.read("facts_by_relation", space=space)


SCRIPT = {
    "DOC_A": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization"),
              ("Ada Lovelace", "knows", "Charles Babbage", "Person", "Person")],
    "DOC_B": [("Grace Hopper", "works for", "US Navy", "Person", "Organization")],
}


def test_schema_promotion_is_incremental(store, test_store, space, minilm, threshold_ontology):
    memory = _memory(store, space, threshold_ontology, minilm, SCRIPT)
    memory.ingest([Document(title="A", text="DOC_A Ada Lovelace worked with Charles Babbage.")], progress=False)
    schemas = {r["relation"]: r for r in test_store.read("schemas", space=space)}
    assert schemas["employed_by"]["state"] == "candidate" and schemas["employed_by"]["frequency"] == 1
    assert {f["relation"]: f["state"] for f in _facts(store, test_store, space)} == {
        "employed_by": "pending", "knows": "pending"}

    # A second document supports employed_by ("works for" is its synonym) a second time (tau = 2): stable, and the fact from the
    # FIRST document is activated too; `knows`, seen once, stays candidate with its fact pending.
    memory.ingest([Document(title="B", text="DOC_B Grace Hopper served in the US Navy.")], progress=False)
    schemas = {r["relation"]: r for r in test_store.read("schemas", space=space)}
    assert schemas["employed_by"]["state"] == "stable" and schemas["employed_by"]["frequency"] == 2
    assert schemas["knows"]["state"] == "candidate"
    states = sorted((f["head"], f["relation"], f["state"]) for f in _facts(store, test_store, space))
    assert states == [("Ada Lovelace", "employed_by", "active"), ("Ada Lovelace", "knows", "pending"),
                      ("Grace Hopper", "employed_by", "active")]


def test_batch_promotion_equals_a_full_recount(store, test_store, space, minilm, threshold_ontology):
    # After every batch only the schemas and facts that batch wrote are recounted and activated; a full
    # recount afterwards (MemoryGraph.promote) must find nothing left to do: same frequencies, states.
    script = {"P1": [("Sicily", "part_of", "Italy", "Place", "Place")],
              "P2": [("Ada Lovelace", "knows", "Charles Babbage", "Person", "Person")],
              "P3": [("Bavaria", "part_of", "Germany", "Place", "Place")],
              "P4": [("Texas", "part_of", "United States", "Place", "Place")]}
    memory = _memory(store, space, threshold_ontology, minilm, script)
    memory.ingest([Document(text=f"{k} text") for k in script], batch_size=1, progress=False)
    schemas = sorted((r["relation"], r["state"], r["frequency"]) for r in test_store.read("schemas", space=space))
    facts = sorted((f["head"], f["state"]) for f in _facts(store, test_store, space))
    assert schemas == [("knows", "candidate", 1), ("part_of", "stable", 3)]
    assert facts == [("Ada Lovelace", "pending"), ("Bavaria", "active"), ("Sicily", "active"), ("Texas", "active")]
    assert memory.promote() == (0, 0)
    recounted = test_store.read("schemas", space=space)
    assert sorted((r["relation"], r["state"], r["frequency"]) for r in recounted) == schemas


def test_promotion_left_undone_by_a_kill_is_done_by_the_next_ingest(store, test_store, space, minilm,
                                                                    threshold_ontology, monkeypatch):
    script = {"DOC_A": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization")],
              "DOC_B": [("Grace Hopper", "works for", "US Navy", "Person", "Organization")],
              "DOC_C": [("Alan Turing", "knows", "Alonzo Church", "Person", "Person")]}
    memory = _memory(store, space, threshold_ontology, minilm, script)

    write_batch = memory.writer.write_batch

    def killed(outcomes, promote=True, **rows):  # a writer that committed the facts, then died before promoting
        write_batch(outcomes, promote=False, **rows)
        raise KeyboardInterrupt("killed between the batch's writes and its promotion")

    monkeypatch.setattr(memory.writer, "write_batch", killed)
    with pytest.raises(KeyboardInterrupt):
        memory.ingest([Document(text="DOC_A text"), Document(text="DOC_B text")], progress=False)
    # A new process ingests something unrelated: its promotion must still recount employed_by, whose
    # two facts the killed process wrote (tau = 2), and activate them.
    again = _memory(store, space, threshold_ontology, minilm, script)
    again.ingest([Document(text="DOC_C text")], progress=False)
    schemas = {r["relation"]: (r["state"], r["frequency"]) for r in test_store.read("schemas", space=space)}
    assert schemas == {"employed_by": ("stable", 2), "knows": ("candidate", 1)}
    assert sorted((f["head"], f["state"]) for f in _facts(store, test_store, space)) == [
        ("Ada Lovelace", "active"), ("Alan Turing", "pending"), ("Grace Hopper", "active")]


def test_extracting_ahead_gives_the_memory_of_one_batch_after_another(store, space, minilm, threshold_ontology):
    class Ahead(ScriptedExtractor):
        uses_guide = False  # ingest extracts batch n+1 on a thread while batch n is written

    docs = [Document(text=f"{k} text") for k in SCRIPT]
    sequential = _memory(store, space, threshold_ontology, minilm, SCRIPT)
    sequential.ingest(docs, batch_size=1, progress=False)
    ahead = MemoryGraph(space=space + "_ahead", store=store, ontology=threshold_ontology, embedder=minilm,
                        extractor=Ahead(SCRIPT))
    try:
        report = ahead.ingest(docs, batch_size=1, progress=False)
        assert report.extracted == 2
        assert {**ahead.stats(), "space": space} == sequential.stats()
    finally:
        store.run_implicit("admin/delete_space", space=space + "_ahead")


def test_reingest_changes_nothing(store, test_store, space, minilm, threshold_ontology):
    memory = _memory(store, space, threshold_ontology, minilm, SCRIPT)
    docs = [Document(title="A", text="DOC_A Ada Lovelace worked with Charles Babbage."),
            Document(title="B", text="DOC_B Grace Hopper served in the US Navy.")]
    memory.ingest(docs, progress=False)
    before = memory.stats()
    report = memory.ingest(docs, progress=False)
    assert report.passages_new == 0 and report.extracted == 0
    assert memory.stats() == before
    assert before["nodes"]["Fact"]["total"] == 3 and before["nodes"]["Passage"]["total"] == 2


def test_relation_spellings_make_one_schema(store, test_store, space, minilm, threshold_ontology):
    script = {"P1": [("Sicily", "part_of", "Italy", "Place", "Place")],
              "P2": [("Bavaria", "Part Of", "Germany", "Place", "Place")],
              "P3": [("Texas", "part of", "United States", "Place", "Place")]}
    memory = _memory(store, space, threshold_ontology, minilm, script)
    memory.ingest([Document(text=f"{k} text") for k in script], progress=False)
    schemas = test_store.read("schemas", space=space)
    assert [(s["head_type"], s["relation"], s["tail_type"], s["frequency"]) for s in schemas] == [
        ("Place", "part_of", "Place", 3)]


def test_one_person_written_two_ways_is_one_entity(store, test_store, space, minilm, threshold_ontology):
    """A similar name joins a stored entity when they share context: here Honolulu, mentioned beside both.
    The merge is recorded on the name, and listed by the analytics pack."""
    script = {"FIRST": [("Barack Obama", "born in", "Honolulu", "Person", "Place")],
              "SECOND": [("Obama", "president of", "United States", "Person", "Place"),
                         ("Obama", "visited", "Honolulu", "Person", "Place")]}
    memory = _memory(store, space, threshold_ontology, minilm, script)
    memory.ingest([Document(text="FIRST Barack Obama was born in Honolulu.")], progress=False)
    memory.ingest([Document(text="SECOND Obama was president of the United States and visited Honolulu.")],
                  progress=False)
    people = test_store.read("entities_of_type", space=space, type="Person")
    assert len(people) == 1
    assert people[0]["name"] == "Barack Obama" and set(people[0]["aliases"]) == {"Barack Obama", "Obama"}
    assert people[0]["facts"] == 3  # every fact hangs on the one entity
    merges = memory.analytics("entity_merges")
    assert [(m["name"], m["entity"], m["joined"], m["rule"], m["evidence"]) for m in merges] == [
        ("obama", "Barack Obama", "Barack Obama", "similarity", "shared neighbour")]


def test_a_page_titled_by_a_name_is_evidence_for_the_merge(store, test_store, space, minilm, threshold_ontology):
    """HotpotQA: "Trent Reznor" (the soundtrack's page) is "Michael Trent Reznor" of the page titled "Trent
    Reznor"; the two pages share no document and no neighbour, the title says they are one person."""
    script = {"BIO": [("Michael Trent Reznor", "born on", "May 17, 1965", "Person", "Date")],
              "OST": [("Natural Born Killers", "produced by", "Trent Reznor", "Work", "Person")]}
    memory = _memory(store, space, threshold_ontology, minilm, script)
    memory.ingest([Document(title="Trent Reznor", text="BIO Michael Trent Reznor (born May 17, 1965) is a musician.")],
                  progress=False)
    memory.ingest([Document(title="Natural Born Killers (soundtrack)",
                            text="OST The soundtrack to Natural Born Killers was produced by Trent Reznor.")],
                  progress=False)
    assert [(m["name"], m["entity"], m["evidence"]) for m in memory.analytics("entity_merges")] == [
        ("trent reznor", "Michael Trent Reznor", "title")]


def test_a_similar_name_without_shared_context_stays_apart(store, test_store, space, minilm, threshold_ontology):
    """On the embedding alone "Michael Hurst" became "Michael Eric Hurst" (a 6k-passage build): two documents
    that share nothing keep the two names apart, and a later mention of either resolves to its own."""
    script = {"FIRST": [("Barack Obama", "born in", "Honolulu", "Person", "Place")],
              "SECOND": [("Obama", "president of", "United States", "Person", "Place")],
              "THIRD": [("Barack Obama", "wrote", "Dreams from My Father", "Person", "Work")]}
    memory = _memory(store, space, threshold_ontology, minilm, script)
    for text in ("FIRST Barack Obama was born in Honolulu.", "SECOND Obama was president of the United States.",
                 "THIRD Barack Obama wrote Dreams from My Father."):
        memory.ingest([Document(text=text)], progress=False)
    people = test_store.read("entities_of_type", space=space, type="Person")
    assert [(p["name"], p["facts"]) for p in people] == [("Barack Obama", 2), ("Obama", 1)]
    assert memory.analytics("entity_merges") == []


def test_failed_chunk_is_listed_and_others_are_stored(store, test_store, space, minilm, threshold_ontology):
    script = {"GOOD": [("Marie Curie", "born in", "Warsaw", "Person", "Place")],
              "BAD": TimeoutError("model call timed out after 3 attempts")}
    memory = _memory(store, space, threshold_ontology, minilm, script)
    report = memory.ingest([Document(text="GOOD Marie Curie was born in Warsaw."),
                            Document(text="BAD this chunk times out")], progress=False)
    assert report.failed == 1 and report.extracted == 1
    stats = memory.stats()
    assert [f["error"] for f in stats["failed_chunks"]] == ["model call timed out after 3 attempts"]
    assert stats["nodes"]["Passage"]["by_state"] == {"ok": 1, "failed": 1}
    assert [f["head"] for f in _facts(store, test_store, space)] == ["Marie Curie"]
    # The next ingest retries only the failed chunk.
    memory.extractor.script["BAD"] = [("Pierre Curie", "born in", "Paris", "Person", "Place")]
    memory.extractor.calls.clear()
    memory.ingest([Document(text="GOOD Marie Curie was born in Warsaw."),
                   Document(text="BAD this chunk times out")], progress=False)
    assert memory.extractor.calls == ["BAD this chunk times out"]
    assert memory.stats()["failed_chunks"] == []


def test_long_document_is_chunked_with_offsets(store, test_store, space, minilm, threshold_ontology):
    text = " ".join(f"Sentence number {i} talks about the river Danube and its many bridges." for i in range(120))
    memory = _memory(store, space, threshold_ontology, minilm, {})
    report = memory.ingest([Document(title="Long", text=text)], progress=False)
    passages = test_store.read("passages", space=space)
    assert report.passages == len(passages) > 3
    for p in passages:
        assert text[p["start"]:p["end"]] == p["text"]
    assert test_store.read("next_chain_length", space=space)[0]["links"] == len(passages) - 1
