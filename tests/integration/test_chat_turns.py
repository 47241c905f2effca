"""Chat turns through the public API with the offline extractor: "I" is the speaker and "you" the other
participant, the facts are valid from the message's time, a later move ends the earlier residence, and
interjections are no entities (extractors/offline/speakers.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.extractors.offline import OfflineExtractor
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session
from memgraph_neo4j.memory.ontology import load_ontology

MOVED = datetime(2024, 1, 10, 9, 30, tzinfo=UTC)
MOVED_AGAIN = datetime(2024, 6, 1, 18, tzinfo=UTC)

CHAT = Conversation("ana-bo", title="Ana and Bo", sessions=[
    Session("1", [Message("Ana", "Big news: I moved to Porto!", time=MOVED),
                  Message("Bo", "Congrats! Wow, did you move to Porto for work?"),
                  Message("Ana", "Haha, yes. 100%!")], time=datetime(2024, 1, 10, 9, tzinfo=UTC)),
    Session("2", [Message("Bo", "Glad you liked it there."),
                  Message("Ana", "I moved to Berlin last week.", time=MOVED_AGAIN)],
            time=datetime(2024, 6, 1, 9, tzinfo=UTC)),
])


@pytest.fixture
def memory(store, space, minilm, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    try:
        extractor = OfflineExtractor(load_ontology(), minilm, ner="spacy")
    except RuntimeError as exc:  # no nlp extra
        pytest.skip(str(exc))
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor=extractor, adjudication=False)
    report = memory.ingest_conversations([CHAT])
    assert report.passages_new == 5
    return memory


def test_first_person_is_the_speaker_valid_from_the_message(memory):
    def lives(as_of=None):
        return [(f.head, f.tail, f.valid_at, f.invalid_at) for f in memory.facts(as_of=as_of, relation="lives_in")]

    assert lives("2024-03-01") == [("Ana", "Porto", MOVED, MOVED_AGAIN)]  # lives_in: one place at a time
    assert lives("2024-07-01") == [("Ana", "Berlin", MOVED_AGAIN, None)]
    assert lives("2023-12-31") == []  # not before it was said
    # the fact's head is the speaker's own entity, the one her messages are SPOKEN_BY
    ana = memory.entity_ids(["Ana"])["Ana"]
    assert ana is not None and {f.head for f in memory.facts(entity_ids=[ana], relation="lives_in")} == {"Ana"}


def test_questions_and_interjections_make_nothing(memory):
    assert {(f.head, f.relation, f.tail) for f in memory.facts() if f.head == "Bo"} == set()  # "did you move?"
    found = memory.entity_ids(["Congrats", "Wow", "Haha", "100%", "Glad"])
    assert found == dict.fromkeys(found)  # none is an entity
