"""A name a bracket says the entity is also called (aliases.bracket_aliases): 'X (released in the US as "Y")',
'X, 2005 (sometimes also called Y)', 'X (aka "Y")'. One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_a_bracket_released_as_names_the_work_otherwise(ex: OfflineExtractor) -> None:
    got = facts(ex, "The film Harbour Lights (released in the US as \"Night Harbour\") was directed by Mary Fenton.")
    assert ("Harbour Lights", "also_known_as", "Night Harbour") in got


def test_the_year_after_an_acts_name_makes_the_bracket_the_acts(ex: OfflineExtractor) -> None:
    got = facts(ex, "The Ferry Safety Act was a part of Title II of the Transportation Appropriations Act, 1999 (also "
                    "called the Omnibus Transport Act of 1999).")
    assert ("Transportation Appropriations Act", "also_known_as", "Omnibus Transport Act of 1999") in got


def test_aka_with_a_lone_quote_gives_the_nickname(ex: OfflineExtractor) -> None:
    got = facts(ex, "Its singer was Daniel Walsh (aka \"Dusty) and its drummer Simon Archer.")
    assert ("Daniel Walsh", "also_known_as", "Dusty") in got


def test_the_place_a_bracket_name_is_used_in_is_not_part_of_it(ex: OfflineExtractor) -> None:
    got = facts(ex, "Harbour Lights 98 (known as Harbour Lights Gold Edition in the United States) is a video game "
                    "released in 1998.")
    assert ("Harbour Lights 98", "also_known_as", "Harbour Lights Gold Edition") in got
    assert not any(t.endswith("United States") for h, r, t in got if r == "also_known_as")
