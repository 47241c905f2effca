"""memory/facts.fact_rows without Neo4j: which facts are kept, their states, their content-hash ids."""

from __future__ import annotations

import pytest

from memgraph_neo4j.contracts import (
    ExtractedEntity,
    ExtractedFact,
    Extraction,
    ExtractionOutcome,
    FactState,
    SchemaState,
)
from memgraph_neo4j.memory.facts import fact_rows, mentions_of
from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.memory.resolve import resolve_mentions
from memgraph_neo4j.repository.facts import MentionRow


class NothingStored:
    def lookup_aliases(self, keys):
        return []

    def entity_neighbors(self, rows, fetch, min_cosine):
        return []


def fact(head: str, relation: str, tail: str, head_type: str, tail_type: str, time: str | None = None):
    return ExtractedFact(head=head, relation=relation, tail=tail, head_type=head_type, tail_type=tail_type, time=time)


def outcome(passage_id: str, facts: list[tuple], entities: list[tuple[str, str]] = ()) -> ExtractionOutcome:
    """A successful outcome; facts are (head, relation, tail, head type, tail type[, time])."""
    return ExtractionOutcome(
        passage_id=passage_id, doc_id="doc", extractor="test", model="m-1", prompt_version="v1",
        extraction=Extraction(entities=[ExtractedEntity(name=n, type=t) for n, t in entities],
                              facts=[fact(*f) for f in facts]))


def rows_for(outcomes, ontology):
    resolution = resolve_mentions(NothingStored(), mentions_of(outcomes, ontology))
    return fact_rows(outcomes, resolution, ontology), resolution


@pytest.fixture(scope="module")
def open_ontology():
    return load_ontology()


@pytest.fixture(scope="module")
def strict_ontology():
    return load_ontology().model_copy(update={"mode": "strict"})


def test_self_loops_and_unusable_relations_are_dropped(open_ontology):
    outcomes = [outcome("p1", [("Ada Lovelace", "was born in", "London", "Person", "Place"),
                               ("Ada Lovelace", "knows", "ada lovelace.", "Person", "Person"),  # one entity
                               ("Ada Lovelace", "?!", "London", "Person", "Place")])]  # no relation left
    rows, resolution = rows_for(outcomes, open_ontology)
    assert rows.dropped == 2
    (fact,) = rows.facts
    ada, london = resolution.by_key["ada lovelace"], resolution.by_key["london"]
    assert (fact.head_id, fact.relation, fact.tail_id) == (ada, "born_in", london)
    assert (fact.head, fact.tail, fact.relation_raw) == ("Ada Lovelace", "London", "was born in")
    assert fact.text == "Ada Lovelace born in London"
    assert fact.declared and fact.state is FactState.PENDING and fact.schema_state is SchemaState.CANDIDATE
    assert (fact.extractor, fact.model, fact.prompt_version) == ("test", "m-1", "v1")
    assert fact.ontology_version == open_ontology.version_hash


def test_facts_about_names_the_resolution_does_not_know_are_dropped(open_ontology):
    known = [outcome("p1", [("Ada Lovelace", "born in", "London", "Person", "Place")])]
    resolution = resolve_mentions(NothingStored(), mentions_of(known, open_ontology))
    other = [outcome("p2", [("Charles Babbage", "born in", "London", "Person", "Place")])]
    rows = fact_rows(other, resolution, open_ontology)
    assert rows.facts == [] and rows.dropped == 1
    assert rows.mentions == [MentionRow("p2", resolution.by_key["london"])]


def test_failed_outcomes_contribute_nothing(open_ontology):
    failed = ExtractionOutcome(passage_id="p1", doc_id="doc", error="timeout", extractor="test")
    rows, _ = rows_for([failed], open_ontology)
    assert rows.facts == [] and rows.mentions == [] and rows.dropped == 0


def test_open_ontology_keeps_undeclared_schemas_as_candidates(open_ontology):
    rows, _ = rows_for([outcome("p1", [("Ada Lovelace", "zorbled", "London", "Person", "Place")])], open_ontology)
    (fact,) = rows.facts
    assert fact.relation == "zorbled" and not fact.declared
    assert fact.state is FactState.PENDING and fact.schema_state is SchemaState.CANDIDATE


def test_strict_ontology_discards_undeclared_and_stabilises_declared(strict_ontology):
    outcomes = [outcome("p1", [("Ada Lovelace", "born in", "London", "Person", "Place"),
                               ("Ada Lovelace", "zorbled", "London", "Person", "Place"),
                               ("London", "born in", "Ada Lovelace", "Place", "Person")])]  # domain/range wrong
    rows, _ = rows_for(outcomes, strict_ontology)
    by_text = {f.text: f for f in rows.facts}
    declared = by_text["Ada Lovelace born in London"]
    assert declared.declared and declared.schema_state is SchemaState.STABLE
    assert declared.state is FactState.PENDING  # activation is promotion's job
    for text in ("Ada Lovelace zorbled London", "London born in Ada Lovelace"):
        assert not by_text[text].declared
        assert by_text[text].state is FactState.DISCARDED and by_text[text].schema_state is SchemaState.CANDIDATE


def test_ids_are_content_hashes_so_duplicates_collapse(open_ontology):
    outcomes = [outcome("p1", [("Ada Lovelace", "born in", "London", "Person", "Place"),
                               ("ada lovelace", "was born in", "London.", "Person", "Place")],
                        entities=[("Ada Lovelace", "Person")]),
                outcome("p2", [("Ada Lovelace", "birthplace", "London", "Person", "Place"),
                               ("Ada Lovelace", "born in", "London", "Person", "Place", "1815")])]
    rows, resolution = rows_for(outcomes, open_ontology)
    ada, london = resolution.by_key["ada lovelace"], resolution.by_key["london"]
    plain = content_hash(ada, "born_in", london, "")
    dated = content_hash(ada, "born_in", london, "1815")
    # one row per passage a fact is grounded in; the spellings in p1 are one fact
    assert [(f.passage_id, f.id) for f in rows.facts] == [("p1", plain), ("p2", plain), ("p2", dated)]
    assert {f.schema_id for f in rows.facts} == {content_hash("Person", "born_in", "Place")}
    assert rows.facts[2].time == "1815" and rows.facts[2].text == "Ada Lovelace born in London (1815)"
    assert rows.dropped == 0
    assert rows.mentions == sorted({MentionRow(p, e) for p in ("p1", "p2") for e in (ada, london)})
    # the same outcomes give the same ids again
    again, _ = rows_for(outcomes, open_ontology)
    assert [f.id for f in again.facts] == [f.id for f in rows.facts]


class MergedStored(NothingStored):
    """"obama" is stored as a name merged into the entity of "barack obama" (its Alias records the merge)."""

    def lookup_aliases(self, keys):
        from memgraph_neo4j.repository.entities import AliasHit

        entity = content_hash("barack obama")
        return [AliasHit(k, entity, "Person", ("Barack Obama", "Obama"), merged=k == "obama")
                for k in keys if k in ("obama", "barack obama")]


def test_where_a_merged_name_is_used_is_recorded_sparsely(open_ontology):
    """memory/unmerge.py moves what a merged name stated: the fact ends and mentions that used it are recorded,
    `direct` where the passage also used an own name; a batch that used none records nothing."""
    outcomes = [outcome("p1", [("Obama", "visited", "Honolulu", "Person", "Place")]),
                outcome("p2", [("Barack Obama", "visited", "Honolulu", "Person", "Place"),
                               ("Obama", "visited", "Honolulu", "Person", "Place"),  # one fact, both names
                               ("Honolulu", "is home of", "Obama", "Place", "Person")]),
                outcome("p3", [("Barack Obama", "visited", "Paris", "Person", "Place")])]
    resolution = resolve_mentions(MergedStored(), mentions_of(outcomes, open_ontology))
    assert resolution.merged_keys == {"obama"}
    rows = fact_rows(outcomes, resolution, open_ontology)
    relation = {r.id: r.relation for r in rows.facts}
    assert sorted((relation[k.fact_id], k.passage_id, k.head_key, k.tail_key, k.direct) for k in rows.evidence_keys) \
        == [("is_home_of", "p2", None, "obama", None), ("visited", "p1", "obama", None, None),
            ("visited", "p2", "obama", None, True)]
    entity = content_hash("barack obama")
    assert [(m.passage_id, m.entity_id, m.merged_keys, m.direct) for m in rows.mention_keys] == [
        ("p1", entity, ["obama"], None), ("p2", entity, ["obama"], True)]
    plain = fact_rows(outcomes[2:], resolve_mentions(MergedStored(), mentions_of(outcomes[2:], open_ontology)),
                      open_ontology)
    assert plain.evidence_keys == [] and plain.mention_keys == []
