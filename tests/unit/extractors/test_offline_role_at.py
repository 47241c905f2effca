"""A person's role noun "at" an organisation the NER took for a person (dependency.py, ROLE_PREPS): the name's
last word ("University") types it. One sentence of our own."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_a_coach_at_a_university_the_ner_calls_a_person_is_employed_there(ex: OfflineExtractor) -> None:
    got = facts(ex, "Tom Harlan (born May 3, 1958) is an American basketball coach. "
                    "From 2001 to 2006, he was the assistant coach at Sam Houston State University.")
    assert ("Tom Harlan", "employed_by", "Sam Houston State University") in got
