"""Rules of the offline extractor for encyclopaedic passages (MuSiQue, HotpotQA): other names given where a
name is written, life spans with places, ... One sentence of our own per rule."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_a_nickname_in_quotes_names_the_person_and_the_full_name_is_an_alias(ex: OfflineExtractor) -> None:
    got = facts(ex, 'Robert Allen "Bob" Marsh (born June 3, 1950) is an American painter.')
    assert {("Bob Marsh", "birth_date", "June 3, 1950"), ("Bob Marsh", "also_known_as", "Robert Allen Marsh")} <= got
    got = facts(ex, 'Maria Lopez "Mari" Garcia died on March 3, 1999.')  # the NER splits it at the quotes
    assert {("Mari Garcia", "date_of_death", "March 3, 1999"), ("Mari Garcia", "also_known_as", "Maria Lopez Garcia")
            } <= got


def test_a_name_in_another_language_in_brackets_is_an_alias(ex: OfflineExtractor) -> None:
    assert ("Villa Serena", "also_known_as", "Villa Tranquilla") in facts(
        ex, 'Villa Serena (Italian: "Villa Tranquilla") is a 1961 comedy film directed by Aldo Conti.')
    got = facts(ex, "The Blue Lantern Society (in Welsh: \"Cymdeithas d'y Llusern Las\") was a club founded in 1921.")
    assert ("Blue Lantern Society", "also_known_as", "Cymdeithas d'y Llusern Las") in got
    assert not any(h.startswith("Cymdeithas") for h, r, _ in got if r != "also_known_as")


def test_a_life_span_in_brackets_gives_the_places_of_birth_and_death(ex: OfflineExtractor) -> None:
    got = facts(ex, 'Johannes "Hans" Vermeer (October 2, 1931, Gouda \u2013 May 8, 2001, Delft) was a rower.')
    assert {("Hans Vermeer", "birth_date", "October 2, 1931"), ("Hans Vermeer", "born_in", "Gouda"),
            ("Hans Vermeer", "date_of_death", "May 8, 2001"), ("Hans Vermeer", "died_in", "Delft")} <= got


def test_a_kin_noun_between_two_names_relates_them(ex: OfflineExtractor) -> None:
    assert ("Ellen Park", "sibling_of", "Tom Park") in facts(ex, "Ellen Park's brother Tom Park wrote a memoir.")
    assert ("Tom Park", "child_of", "Ellen Park") in facts(ex, "Ellen Park's son, Tom Park, is a lawyer.")
    assert ("Henry Cole", "spouse_of", "Lucy Vance") in facts(
        ex, "The house is owned by banker Henry Cole and wife Lucy Vance.")
    assert not facts(ex, "Her brother Tom Park wrote a memoir.")  # whose brother is coreference's to say


def test_a_capitalised_role_in_apposition_relates_the_name_to_its_place(ex: OfflineExtractor) -> None:
    assert ("Tom Reed", "leader_of", "Oregon") in facts(
        ex, "The law was signed by Tom Reed, then Governor of Oregon, in May 1950.")


def test_a_building_or_institution_in_a_place_is_located_there(ex: OfflineExtractor) -> None:
    assert ("Gale Academy", "located_in", "Dover") in facts(
        ex, "Gale Academy, a private school in Dover, Delaware, opened in 1905.")
    assert ("Elmwood", "capital_of", "Harlan County") in facts(ex, "Elmwood is the county seat of Harlan County.")


def test_born_date_comma_in_place_gives_the_place_of_birth(ex: OfflineExtractor) -> None:
    got = facts(ex, "Tom Hale (born 4 May 1990, in Leeds) is an English footballer.")
    assert {("Tom Hale", "birth_date", "4 May 1990"), ("Tom Hale", "born_in", "Leeds")} <= got


def test_the_novel_title_by_author_gives_the_author(ex: OfflineExtractor) -> None:
    got = facts(ex, 'Silent Water is a 2004 film. The film is based on the novel "Greta Holm" by Anna Berg.')
    assert ("Greta Holm", "created_by", "Anna Berg") in got


def test_two_short_forms_in_brackets_are_both_aliases(ex: OfflineExtractor) -> None:
    got = facts(ex, "The Northern Dance Group (NDG, NorDG) is a company.")
    assert {("Northern Dance Group", "also_known_as", "NDG"), ("Northern Dance Group", "also_known_as", "NorDG")} <= got
    assert not any(r == "also_known_as" for _, r, _ in facts(ex, "Tom Hale (TH, Leeds) is a footballer."))
