"""He/she across a paragraph and kin after a possessive (offline extractor, spaCy): coreference.py, kinship.py."""

from __future__ import annotations

import pytest

from memgraph_neo4j.extractors.offline import OfflineExtractor, load_spacy
from memgraph_neo4j.memory.ontology import load_ontology

pytestmark = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")

OPENING = "The mill at Leeds was old. "  # the section's first name is a place: the topic rule resolves no he/she


@pytest.fixture(scope="module")
def ex() -> OfflineExtractor:
    return OfflineExtractor(load_ontology(), ner="spacy")


def facts(ex: OfflineExtractor, text: str) -> set[tuple[str, str, str]]:
    return {(f.head, f.relation, f.tail) for f in ex.extract_text(text).facts if f.relation != "co_occurs_with"}


def test_he_is_the_person_the_previous_sentence_is_about(ex: OfflineExtractor) -> None:
    found = facts(ex, OPENING + "Capt. Tom Baxter was born there in 1850. As a young man he moved to York.")
    assert ("Tom Baxter", "move_to", "York") in found


@pytest.mark.parametrize("text", [
    "Tom Baxter met Anna Price there. He moved to York.",  # two people: either may be meant
    "Mrs. Anna Price was born there. He moved to York.",  # the title says she
    "Tom Baxter was born there.\n\nHe moved to York.",  # another paragraph
    "Tom Baxter was born there. The old dog barked as he moved to York.",  # an unnamed subject is nearer
])
def test_he_stays_unresolved_when_the_person_is_not_certain(ex: OfflineExtractor, text: str) -> None:
    assert not any(t == "York" for _, _, t in facts(ex, OPENING + text))


def test_a_place_is_never_he(ex: OfflineExtractor) -> None:
    # the section's first name is a place: "He married" is not the place's marriage (the sentence patterns)
    assert not any(h == "Leeds" for h, _, _ in facts(ex, OPENING + "Tom Baxter lived there. He married Anna Price."))


@pytest.mark.parametrize(("text", "fact"), [
    ("Tom Baxter lived there with his wife, Anna Price.", ("Tom Baxter", "spouse_of", "Anna Price")),
    ("Tom Baxter lived there. His daughter Anna Price moved to York.", ("Anna Price", "child_of", "Tom Baxter")),
    ("Anna Price wrote that her father John Price had died.", ("Anna Price", "child_of", "John Price")),
])
def test_kin_named_after_a_possessive(ex: OfflineExtractor, text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts(ex, OPENING + text)


def test_kin_of_an_uncertain_possessor_gives_no_fact(ex: OfflineExtractor) -> None:
    found = facts(ex, OPENING + "Tom Baxter met Anna Price, and his brother Harold Baxter came too.")
    assert not any(r == "sibling_of" for _, r, _ in found)  # "his": Tom, but Anna is named before it
    found = facts(ex, OPENING + "The Price family came with her sister Mary Price.")
    assert not any(r == "sibling_of" for _, r, _ in found)  # a family name in passing is no possessor
