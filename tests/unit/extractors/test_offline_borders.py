"""A place's neighbours after "borders (with)" (borders.py), where the small model parses "borders" as a noun
and cuts or misses the neighbours' names. One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_the_names_after_borders_with_are_the_places_neighbours(ex: OfflineExtractor) -> None:
    got = facts(ex, "Toropetsky District () is an administrative and municipal district (raion), one of the thirty-six "
                    "in Tver Oblast, Russia. "
                    "It is located in the north of the oblast and borders with Belsky, Kalininsky, and Staritsky "
                    "Districts, as well as with Zubtsov Province of Russia in the west.")
    assert {("Toropetsky District", "border_with", "Belsky"), ("Toropetsky District", "border_with", "Kalininsky"),
            ("Toropetsky District", "border_with", "Staritsky Districts")} <= got
    assert not any(t == "Russia" for h, r, t in got if r == "border_with")  # "X Province of Russia": where X lies

