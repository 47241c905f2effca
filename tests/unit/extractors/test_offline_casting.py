"""Who plays whom (casting.py): "stars A as P, and B as Q", "her role as P in X", "his portrayal of P in X".
One sentence of our own per rule."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_stars_a_as_p_and_b_as_q_gives_both_cast_members_and_their_parts(ex: OfflineExtractor) -> None:
    got = facts(ex, "Dark Water is a 1998 British thriller film directed by Tom Ellis. "
                    "It stars Julia Marsh as detective Ann Hale, and Peter Crane as Victor Lang.")
    assert {("Dark Water", "cast_member", "Julia Marsh"), ("Dark Water", "cast_member", "Peter Crane"),
            ("Julia Marsh", "play", "Ann Hale"),
            ("Peter Crane", "play", "Victor Lang")} <= got
    assert not any(r == "star_as" for _, r, _ in got)


def test_a_role_or_portrayal_of_the_subject_gives_the_work_and_the_part(ex: OfflineExtractor) -> None:
    got = facts(ex, "Laura Finch (born May 2, 1979) is a Canadian actress. "
                    'She is best known for her role as Mary Dunn in the television series "Tidewater".')
    assert {("Laura Finch", "play", "Mary Dunn"), ("Laura Finch", "acted_in", "Tidewater")} <= got
    got = facts(ex, "Owen Price is an American actor. "
                    "He is known for his portrayal of Sam Reid in the series Longview.")
    assert {("Owen Price", "play", "Sam Reid"), ("Owen Price", "acted_in", "Longview")} <= got


def test_a_one_word_title_in_quotes_after_the_is_a_name(ex: OfflineExtractor) -> None:
    assert ("Lena Ford", "acted_in", "Scream") in facts(  # the parse puts "the" on "Scream" itself
        ex, 'Lena Ford is a Canadian actress. She is best known for her role as Carol Prescott in the horror film '
            'series "Scream".')


def test_known_for_playing_a_part_on_a_series_gives_the_part_and_the_series(ex: OfflineExtractor) -> None:
    got = facts(ex, "Owen Price is an American actor. "
                    "He is known for playing detective Sam Reid on the series Longview.")
    assert {("Owen Price", "play", "Sam Reid"), ("Owen Price", "acted_in", "Longview")} <= got
