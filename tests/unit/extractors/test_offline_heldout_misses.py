"""Rules made from the held-out sample's misses (issue 27): a title in quotes, a name a bracket says it had
then, a birth date after a bracket the source emptied, where a place lies from another, a band's players.
One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def _entities(ex: OfflineExtractor, text: str) -> dict[str, str]:
    return {e.name: e.type for e in ex.extract_text(text).entities}


def test_a_quoted_title_the_ner_misses_is_a_work(ex: OfflineExtractor) -> None:
    got = _entities(ex, "Mara Quinn's \"Rivers in the Dark\" topped the chart in 1983.")
    assert got.get("Rivers in the Dark") == "Work", got
    got = facts(ex, '"Too Late to Leave" is a song recorded by Welsh singer Anna Bell.')
    assert ("Too Late to Leave", "performed_by", "Anna Bell") in got, got


def test_quoted_speech_is_no_title(ex: OfflineExtractor) -> None:
    got = _entities(ex, "\u201cCome back tomorrow,\u201d said Ellen Marsh to the porter at Dunmore Station.")
    assert not any("Come back" in name for name in got), got


def test_a_quoted_nickname_inside_a_name_is_no_title(ex: OfflineExtractor) -> None:
    got = _entities(ex, 'Johannes "Hans" Brekke was a Dutch sailor.')
    assert got.get("Hans") != "Work", got


def test_a_place_noun_inside_a_quoted_title_is_no_place(ex: OfflineExtractor) -> None:
    got = facts(ex, "It was the first duet to top the chart since Lena Marsh and Owen Tate's \"Islands in the Fog\" "
                    "in 1979.")
    assert not any(r == "located_in" for _, r, _ in got), got


def test_a_bracket_with_the_name_it_had_then_is_an_alias(ex: OfflineExtractor) -> None:
    got = facts(ex, "The club played its home games at Harlow Park (then called Mill Lane Ground) until 1931.")
    assert ("Harlow Park", "also_known_as", "Mill Lane Ground") in got, got


def test_a_birth_date_after_an_emptied_bracket(ex: OfflineExtractor) -> None:
    got = facts(ex, "Mara Ellen Quinn ( ; born March 4, 1968) is a Canadian actress.")
    assert ("Mara Ellen Quinn", "birth_date", "March 4, 1968") in got, got


def test_where_a_place_lies_from_another(ex: OfflineExtractor) -> None:
    got = facts(ex, "Marrow Field Airport is four miles south of Kelby, in Dane County.")
    assert ("Marrow Field Airport", "south_of", "Kelby") in got, got
    got = facts(ex, "Tarrabool is a village 12 km north-west of Lindholm.")
    assert ("Tarrabool", "northwest_of", "Lindholm") in got, got


def test_a_place_after_the_direction_holds_the_place_too(ex: OfflineExtractor) -> None:
    got = facts(ex, "Marrow Field Airport is four miles south of Kelby, in Dane County, Ohio.")
    assert ("Marrow Field Airport", "located_in", "Dane County") in got, got


def test_a_bands_player_is_its_member(ex: OfflineExtractor) -> None:
    got = facts(ex, "Tomas Reyes is the lead guitarist for the band Quillfire.")
    assert ("Tomas Reyes", "member_of", "Quillfire") in got, got
    got = facts(ex, "Anna Bell is the drummer of Lantern Road.")
    assert ("Anna Bell", "member_of", "Lantern Road") in got, got


def test_the_person_a_player_accompanied_is_no_band(ex: OfflineExtractor) -> None:
    got = facts(ex, "Leo Marsh was the pianist for John Smith.")
    assert not any(r == "member_of" for _, r, _ in got), got
