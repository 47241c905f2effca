"""Chat turns in the offline extractor (extractors/offline/speakers.py): "I" is the speaker, "you" the one
other participant, only stated clauses give facts, and discourse words ("Congrats", "Wow", "100%") are
no entities."""

from __future__ import annotations

import pytest

from memgraph_neo4j.contracts import ExtractionInput
from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy
from memgraph_neo4j.extractors.offline.speakers import chat_turn, parse_text
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session, participants
from memgraph_neo4j.memory.ontology import load_ontology

needs_spacy = pytest.mark.skipif(load_spacy() is None, reason="spaCy and its pinned model are not installed")


@pytest.fixture(scope="module")
def extractor() -> OfflineExtractor:
    return OfflineExtractor(load_ontology(), ner="spacy")


def turn(text: str, listeners: tuple[str, ...] = ("Bo",)) -> ExtractionInput:
    speaker = text.split(":")[0]
    return ExtractionInput(passage_id=text, doc_id="d", text=text, speaker=speaker, listeners=list(listeners))


def run(extractor: OfflineExtractor, *items: ExtractionInput):
    outcomes = extractor.extract(list(items))
    assert all(o.ok for o in outcomes), [o.error for o in outcomes]
    return [o.extraction for o in outcomes]


def facts(extraction) -> set[tuple[str, str, str]]:
    return {(f.head, f.relation, f.tail) for f in extraction.facts if f.relation != CO_OCCURS}


def test_the_turn_knows_its_speaker_prefix_and_addressee() -> None:
    t = chat_turn(turn("Ana: I moved to Porto."))
    assert (t.speaker, t.start, t.prefix, t.addressee) == ("Ana", 0, 4, "Bo")
    assert parse_text(turn("Ana: I moved to Porto.")) == "     I moved to Porto."  # same offsets
    assert chat_turn(turn("Ana: hi", ("Bo", "Cy"))).addressee is None  # three people: "you" is nobody
    assert chat_turn(turn("Ana: hi", ())).addressee is None
    assert chat_turn(turn("Ana: hi", ("Ana", "Bo"))).addressee == "Bo"  # the speaker is not their own listener
    assert chat_turn(ExtractionInput(passage_id="p", doc_id="d", text="I moved to Porto.")) is None
    assert chat_turn(turn("Ana: x").model_copy(update={"text": "I moved to Porto."})).prefix == 0


def test_participants_are_per_conversation_in_order_of_first_message() -> None:
    from memgraph_neo4j.ingest.episodes import build_episodes
    chats = [Conversation("c1", [Session("1", [Message("Bo", "hi"), Message("Ana", "hey"), Message("Bo", "x")])]),
             Conversation("c2", [Session("1", [Message("Cy", "alone")])])]
    assert participants(build_episodes(chats).episodes) == {"c1": ["Bo", "Ana"], "c2": ["Cy"]}


@needs_spacy
def test_first_person_is_the_speaker(extractor) -> None:
    moved, works = run(extractor, turn("Ana: I moved to Porto last year."),
                       turn("Ana: I work at Google now and I live in Boston."))
    assert facts(moved) == {("Ana", "lives_in", "Porto")}
    assert ("Ana", "Person") in {(e.name, e.type) for e in moved.entities}
    assert facts(works) == {("Ana", "employed_by", "Google"), ("Ana", "lives_in", "Boston")}


@needs_spacy
def test_second_person_is_the_one_other_participant(extractor) -> None:
    two, three, none = run(extractor, turn("Ana: You moved to Lisbon, I heard."),
                           turn("Ana: You moved to Lisbon, I heard.", ("Bo", "Cy")),
                           turn("Ana: You moved to Lisbon, I heard.", ()))
    assert facts(two) == {("Bo", "lives_in", "Lisbon")}
    assert facts(three) == facts(none) == set()  # more than one listener, or none known: "you" is nobody
    assert "Bo" not in {e.name for e in three.entities}


@needs_spacy
def test_only_stated_clauses(extractor) -> None:
    texts = ["Ana: Did you move to Lisbon?", "Ana: I would move to Porto.", "Ana: I want to visit Japan.",
             "Ana: If I move to Berlin, it will be cold.", "Ana: I'm gonna visit Rome.", "Ana: I never visited Oslo.",
             "Ana: I'm going to Tokyo next month."
             ]  # the parser's negation rule
    assert [facts(e) for e in run(extractor, *(turn(t) for t in texts))] == [set()] * len(texts)
    stated, = run(extractor, turn("Ana: I want to go out. I visited Japan in 2019."))
    assert facts(stated) == {("Ana", "visited", "Japan")}
    assert {f.time for f in stated.facts if f.relation == "visited"} == {"2019"}


@needs_spacy
def test_we_my_and_vocatives_are_not_the_speaker(extractor) -> None:
    we, my, hey = run(extractor, turn("Ana: We moved to Porto."), turn("Ana: My sister visited Japan."),
                      turn("Ana: Hey Maria, since we last spoke I went to Porto."))
    assert facts(we) == facts(my) == set()
    assert facts(hey) == {("Ana", "visited", "Porto")}  # not Maria: she is spoken to
    assert "Hey Maria" not in {e.name for e in hey.entities}


@needs_spacy
def test_discourse_words_are_no_entities(extractor) -> None:
    texts = ["Bo: Congrats on the new job!", "Bo: Glad you liked it!", "Bo: 100%! Totally agree.",
             "Bo: Yep, that's right.", "Bo: Wow, that's amazing!", "Bo: Haha, thanks! Omg, yeah!",
             "Bo: Aww, that's sweet. Nature is healing.", "Bo: Hey Maria, since we last spoke I went to Porto."]
    names = [{e.name for e in x.entities} - {"Bo"} for x in run(extractor, *(turn(t, ("Ana",)) for t in texts))]
    assert names == [set()] * 7 + [{"Maria", "Porto"}]  # "Hey" trimmed off the name
    kept, = run(extractor, turn("Bo: Porto is lovely. About 20% of the city is old.", ("Ana",)))
    assert {"Porto", "About 20%"} <= {e.name for e in kept.entities}  # a proper noun, and a share of something


@needs_spacy
def test_documents_are_unchanged_by_the_chat_rules(extractor) -> None:
    plain = ExtractionInput(passage_id="p", doc_id="d", text="Congrats Ltd moved to Porto. I visited Japan.")
    assert chat_turn(plain) is None
    doc, = run(extractor, plain)
    assert ("Ana", "visited", "Japan") not in facts(doc) and not any(f.head == "I" for f in doc.facts)
