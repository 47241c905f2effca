"""'The series', 'the movie' as a subject stand for the passage's topic when the topic's own class noun gave it
that type (arguments.Arguments._kind_of). One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor

pytestmark = needs_spacy


def test_another_work_noun_stands_for_a_work_topic(ex: OfflineExtractor) -> None:
    assert ("Harbour Lights", "published_by", "Crawford Productions") in facts(
        ex, "Harbour Lights was an Australian television soap opera created by Tom Hegarty. "
            "The series was produced by Crawford Productions.")


def test_a_league_the_ner_calls_an_organisation_is_not_the_team(ex: OfflineExtractor) -> None:
    got = facts(ex, "The Pacific Coast League season lasts six months. "
                    "The team is a member of the Northern Conference.")
    assert not any(h == "Pacific Coast League" for h, _, t in got if t == "Northern Conference")


def test_only_the_ontologys_relations_come_from_a_noun_of_the_topics_kind(ex: OfflineExtractor) -> None:
    """"The film reunites Douglas with Turner": an open verb read from "the film" standing for a comedy gave
    reunite_with facts about the film, which moved a MuSiQue question's gold passage out of the top 2."""
    text = ("Desert Pearls is a 1985 romantic comedy directed by Lewis Teague. "
            "The film reunites Michael Douglas with Kathleen Turner.")
    got = facts(ex, text)
    assert ("Desert Pearls", "directed_by", "Lewis Teague") in got
    assert not any(h == "Desert Pearls" and r.startswith("reunite") for h, r, _ in got), got


def test_a_participle_the_parse_hangs_on_the_director_is_about_the_film(ex: OfflineExtractor) -> None:
    """"a film directed by A, written by B and starring C, D": the parse hangs "written" (and the "starring"
    joined to it) on A; the writer and the cast are the film's (MuSiQue's "Last Vegas" had none of them)."""
    got = facts(ex, "Blue Harbor is a 1999 drama film directed by Anna Berg, written by Tom Hale, and starring "
                    "Eva Lind and Carl Moss.")
    assert {("Blue Harbor", "created_by", "Tom Hale"), ("Blue Harbor", "cast_member", "Eva Lind"),
            ("Blue Harbor", "cast_member", "Carl Moss")} <= got, got


def test_an_actor_the_ner_calls_a_place_is_cast_by_the_verb(ex: OfflineExtractor) -> None:
    """"The film stars A, B, C": spaCy calls Morgan Freeman a place in such a list; the verb knows its objects are
    actors (only the actor is retyped, never the work: "a biopic about Amy Johnson ... starring A" stays apart)."""
    from memgraph_neo4j.contracts import ExtractionInput

    text = ("Blue Harbor is a series of American action comedy films. The film stars Bruce Willis, Morgan Freeman, "
            "John Malkovich, and Karl Urban.")
    out = ex.extract([ExtractionInput(passage_id="p", doc_id="d", text=text, title="Blue Harbor")])[0]
    got = {(f.head, f.relation, f.tail) for f in out.extraction.facts}
    assert ("Blue Harbor", "cast_member", "Morgan Freeman") in got, got
    assert not any(r == CO_OCCURS and "Morgan Freeman" in (h, t) for h, r, t in got), got
