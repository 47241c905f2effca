"""Conversation memory: episodes with speakers and times, facts valid over time (as-of queries across a
changed fact), and System-1 hybrid search on the real Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from marker_script import MarkerScript

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session, build_episodes
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.conversation import ConversationRepository
from memgraph_neo4j.retrieval import METHODS

SCRIPT = {  # marker word in a message -> (head, relation, tail, head type, tail type)
    "Paris": [("Acme", "headquartered_in", "Paris", "Organization", "Place")],
    "Berlin": [("Acme", "headquartered_in", "Berlin", "Organization", "Place")],
    "Alps": [("Bo", "hikes_in", "Alps", "Person", "Place")],
}


class Script(MarkerScript):
    """Facts by marker word (SCRIPT): deterministic, no model."""

    def __init__(self) -> None:
        super().__init__(SCRIPT)


CHAT = Conversation("acme-chat", title="Ana and Bo", sessions=[
    Session("1", [Message("Ana", "Our company Acme is based in Paris."),
                  Message("Bo", "Sounds lovely.")], time=datetime(2024, 1, 10, 9, tzinfo=UTC)),
    Session("2", [Message("Ana", "Big news: Acme moved its headquarters to Berlin."),
                  Message("Bo", "I went hiking in the Alps last weekend.")], time=datetime(2024, 6, 1, 9, tzinfo=UTC)),
])


@pytest.fixture(scope="module")
def ontology():
    base = load_ontology()  # every schema stable at once, so the scripted facts are active
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1, "percentile": None})})


@pytest.fixture
def memory(store, space, ontology, minilm):
    memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm, extractor=Script())
    report = memory.ingest_conversations([CHAT])
    assert (report.documents, report.passages, report.passages_new) == (2, 4, 4)
    assert report.facts == 3
    return memory


def test_episodes_carry_speaker_session_time_and_the_speaker_is_an_entity(memory, test_store, space):
    batch = build_episodes([CHAT])
    details = ConversationRepository(memory.store, space).episode_details([e.id for e in batch.episodes])
    assert [(details[e.id]["speaker"], details[e.id]["session"], details[e.id]["time"]) for e in batch.episodes] == [
        ("Ana", "1", datetime(2024, 1, 10, 9, tzinfo=UTC)), ("Bo", "1", datetime(2024, 1, 10, 9, tzinfo=UTC)),
        ("Ana", "2", datetime(2024, 6, 1, 9, tzinfo=UTC)), ("Bo", "2", datetime(2024, 6, 1, 9, tzinfo=UTC))]
    rows = test_store.read("conversation/speakers", space=space)
    assert [(r["speaker"], r["entity"], r["type"]) for r in rows] == [
        ("Ana", "Ana", "Person"), ("Bo", "Bo", "Person"), ("Ana", "Ana", "Person"), ("Bo", "Bo", "Person")]
    # "Bo" the speaker and "Bo" the head of a fact are one entity
    assert memory.entity_ids(["Bo"])["Bo"] is not None
    assert {f.head for f in memory.facts(relation="hikes_in")} == {"Bo"}
    again = memory.ingest_conversations([CHAT])  # idempotent
    assert (again.passages_new, again.extracted, again.facts) == (0, 0, 0)


def test_as_of_queries_across_a_changed_fact(memory):
    def where(as_of=None):
        return [(f.tail, f.valid_at, f.invalid_at) for f in memory.facts(as_of=as_of, relation="headquartered_in")]

    jan, jun = datetime(2024, 1, 10, 9, tzinfo=UTC), datetime(2024, 6, 1, 9, tzinfo=UTC)
    assert where() == [("Berlin", jun, None)]  # by default: what is true now
    assert where("2024-03-01") == [("Paris", jan, jun)]  # the message in June invalidated Paris
    assert where(datetime(2024, 6, 1, 9, tzinfo=UTC)) == [("Berlin", jun, None)]  # invalid_at is exclusive
    assert where("2023-12-31") == []  # nothing said yet
    # what is not a changing relation stays valid
    assert sorted(f.tail for f in memory.facts(as_of="2030")) == ["Alps", "Berlin"]
    with pytest.raises(ValueError):
        memory.facts(as_of="someday")


def test_hybrid_search_fuses_episodes_entities_and_valid_facts(memory):
    for method in ("hybrid", "hybrid-expand", "hybrid-context", "hybrid-ppr"):
        assert method in METHODS
        result = memory.search("Where is Acme headquartered?", method=method, top_k=3)
        assert 1 <= len(result.passages) <= 3 and all(p.text for p in result.passages)
        assert len(result.entities) <= 6 and len(result.facts) <= 6
    now = memory.search("Where is Acme headquartered?", method="hybrid", top_k=2)
    assert "Acme headquartered in Berlin" in [f.text for f in now.facts]
    assert "Acme headquartered in Paris" not in [f.text for f in now.facts]
    assert "Acme" in [e.name for e in now.entities]
    assert any("Berlin" in p.text for p in now.passages)
    then = memory.search("Where is Acme headquartered?", method="hybrid", top_k=3, as_of="2024-03-01")
    assert [f.text for f in then.facts if "headquartered" in f.text] == ["Acme headquartered in Paris"]
    assert {p.text for p in then.passages} == {"[09:00 on 10 January 2024] Ana: Our company Acme is based in Paris.",
                                              "[09:00 on 10 January 2024] Bo: Sounds lovely."}
    with pytest.raises(ValueError):
        memory.search("x", method="dense", as_of="2024-03-01")
