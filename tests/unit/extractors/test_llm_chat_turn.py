"""The guard on an LLM reply for a conversation message (prompts/chat_turn.py), case by case: pronouns
become the speaker or the addressee or drop their fact, interjections drop, real names stay."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionInput
from memgraph_neo4j.prompts.chat_turn import chat_block, guard_turn
from memgraph_neo4j.prompts.extraction import user_prompt


def turn(text: str, listeners: tuple[str, ...] = ("Bo",), said_at: datetime | None = None) -> ExtractionInput:
    return ExtractionInput(passage_id="p", doc_id="d", text=f"Ana: {text}", title="Ana", speaker="Ana",
                           listeners=["Ana", *listeners], said_at=said_at)


def triples(text: str, facts: list[tuple[str, str]], listeners: tuple[str, ...] = ("Bo",)) -> list[tuple[str, str]]:
    reply = Extraction(facts=[ExtractedFact(head=h, relation="rel", tail=t) for h, t in facts])
    guarded, _ = guard_turn(reply, turn(text, listeners))
    return [(f.head, f.tail) for f in guarded.facts]


@pytest.mark.parametrize(("text", "fact", "expected"), [
    ("I moved to Nice.", ("I", "Nice"), ("Ana", "Nice")),  # Nice, not "nice!"
    ("You met Cy in Rome.", ("you", "Cy"), ("Bo", "Cy")),
    ("My sister met Cy.", ("my sister", "Cy"), ("my sister", "Cy")),  # someone else than the speaker
    ("Cy told me about Oslo.", ("Cy", "Me"), ("Cy", "Ana")),
    ("We moved to Oslo.", ("we", "Oslo"), None),  # an unnamed group
    ("I'm 100% sure about Oslo.", ("Ana", "100%"), None),
    ("I spent 20% of the budget.", ("I", "20%"), ("Ana", "20%")),  # a share of something
    ("Congrats! Oh wow, glad you liked Oslo.", ("Congrats", "Oslo"), None),
    ("Congrats! Oh wow, glad you liked Oslo.", ("Glad", "Oslo"), None),
    ("Thank you! Great job at Acme.", ("Thank you", "Acme"), None),
    ("Haha, Cy is in Oslo.", ("Cy", "Haha"), None),
    ("I and me.", ("I", "me"), None),  # one entity
])
def test_pronouns_and_interjections(text, fact, expected):
    assert triples(text, [fact]) == ([expected] if expected else [])


def test_you_is_nobody_with_several_or_no_other_participants():
    assert triples("You met Cy.", [("you", "Cy")], ("Bo", "Cy")) == []
    assert triples("You met Cy.", [("you", "Cy")], ()) == []
    assert triples("I met Cy.", [("I", "Cy")], ()) == [("Ana", "Cy")]


def test_entities_are_the_speaker_once_and_no_interjection():
    reply = Extraction(entities=[ExtractedEntity(name=n, type=t) for n, t in
                                 [("I", "Thing"), ("me", "Person"), ("Wow", "Thing"), ("Nice", "Place"),
                                  ("you", "Person"), ("we", "Group")]],
                       facts=[ExtractedFact(head="I", relation="lives_in", tail="Nice", head_type="Thing")])
    guarded, dropped = guard_turn(reply, turn("Wow, I moved to Nice. Did you?"))
    assert [(e.name, e.type) for e in guarded.entities] == [("Ana", "Person"), ("Nice", "Place"), ("Bo", "Person")]
    assert [(f.head, f.head_type) for f in guarded.facts] == [("Ana", "Person")]  # the speaker's type
    assert dropped == 2  # Wow and we


def test_a_document_is_left_alone():
    doc = ExtractionInput(passage_id="p", doc_id="d", text="I moved to Nice. Wow.")
    reply = Extraction(entities=[ExtractedEntity(name="I")], facts=[ExtractedFact(head="I", relation="r", tail="Wow")])
    assert guard_turn(reply, doc) == (reply, 0)


def test_the_block_says_who_is_you():
    one = chat_block(turn("Hi", said_at=datetime(2024, 5, 8, tzinfo=UTC)))
    assert "Addressee: Bo\nMessage time: 8 May 2024\n" in one and "relative ones" in one
    several = chat_block(turn("Hi", ("Bo", "Cy")))
    assert "Addressees (the other participants): Bo, Cy" in several and "Message time" not in several
    assert "the addressee is unknown" in chat_block(turn("Hi", ()))
    # a message's title only repeats its speaker and time: the block says both
    assert "Title:" not in user_prompt(turn("Hi"), [], [])
