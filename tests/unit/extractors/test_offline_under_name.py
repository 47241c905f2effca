"""Another name an entity goes "under" (under_name.py). One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_under_the_pen_name_is_an_alias_of_the_subject(ex: OfflineExtractor) -> None:
    got = facts(ex, "Mary Ann Evans wrote under the pen name George Eliot.")
    assert ("Mary Ann Evans", "also_known_as", "George Eliot") in got
    assert not any(r.startswith("write") for _, r, _ in got)  # the alias is no object of "wrote"


def test_a_quoted_name_the_parse_made_the_verbs_object(ex: OfflineExtractor) -> None:
    got = facts(ex, "Blue Fire Crisps are marketed under the name \"Blue Original\" in Ireland.")
    assert ("Blue Fire Crisps", "also_known_as", "Blue Original") in got


def test_a_verb_with_its_own_object_keeps_the_name_unread(ex: OfflineExtractor) -> None:
    got = facts(ex, "Peter Hollis released the album under the name Midnight Kings.")
    assert not any(r == "also_known_as" for _, r, _ in got)
