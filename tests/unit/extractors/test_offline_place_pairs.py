"""'A, B' place pairs inside a list of two (patterns.comma_pairs): "Hershey, Pennsylvania, and Akron, Ohio" names
two places each with its region, where "Berea, Amherst, and Massillon" lists three. One sentence of our own each."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_two_places_each_with_its_state_are_located_in_their_states(ex: OfflineExtractor) -> None:
    got = facts(ex, "The club moved first to Boston, then to Scranton, Pennsylvania, and Dayton, Ohio, in 1931.")
    assert {("Scranton", "located_in", "Pennsylvania"), ("Dayton", "located_in", "Ohio")} <= got


def test_a_longer_list_of_places_stays_a_list(ex: OfflineExtractor) -> None:
    got = facts(ex, "The company has offices in Paris, Lyon, Berlin and Munich, where it employs 300 people.")
    assert not any(r == "located_in" for _, r, _ in got)
