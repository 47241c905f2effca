"""A product's date of development or design is its inception (verbs.DATE_RELATIONS). One sentence of our own."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_a_plane_designed_in_the_1930s_dates_from_then(ex: OfflineExtractor) -> None:
    got = facts(ex, "The Fokker T.9 was a bomber designed in the Netherlands in the 1930s.")
    assert ("Fokker T.9", "inception", "the 1930s") in got
