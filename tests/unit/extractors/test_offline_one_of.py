"""'X, one of the N in Y' (one_of.py): a place counted among the places of Y lies in Y; a person counted among
the best of something does not. One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_a_place_counted_among_the_places_of_y_lies_in_y(ex: OfflineExtractor) -> None:
    assert ("Toropetsky District", "located_in", "Tver Oblast") in facts(
        ex, "Toropetsky District () is an administrative and municipal district (raion), one of the thirty-six in "
            "Tver Oblast, Russia.")


def test_a_person_counted_among_the_best_lies_nowhere(ex: OfflineExtractor) -> None:
    got = facts(ex, "Tom Hale is a footballer, one of the best players in Tver Oblast.")
    assert not any(r == "located_in" for h, r, _ in got if h == "Tom Hale")
