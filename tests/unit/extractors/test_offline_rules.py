"""Rules of the offline extractor (spaCy + dependency relations) added for issue 27's recall: one sentence of
our own per rule, each stating what the rule must find (and, where it matters, what it must not)."""

from __future__ import annotations

import pytest

from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy
from memgraph_neo4j.memory.ontology import load_ontology

pytestmark = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


@pytest.fixture(scope="module")
def ex() -> OfflineExtractor:
    return OfflineExtractor(load_ontology(), ner="spacy")


def facts(ex: OfflineExtractor, text: str, title: str | None = None) -> set[tuple[str, str, str]]:
    if title is None:
        extraction = ex.extract_text(text)
    else:
        from memgraph_neo4j.contracts import ExtractionInput, NoGuide
        [outcome] = ex.extract([ExtractionInput(passage_id="p", doc_id="d", text=text, title=title)], NoGuide())
        extraction = outcome.extraction
    return {(f.head, f.relation, f.tail) for f in extraction.facts if f.relation != CO_OCCURS}


def test_a_participle_after_a_name_of_a_phrase_is_about_the_noun_the_phrase_modifies(ex: OfflineExtractor) -> None:
    got = facts(ex, "Winter Harbour is a 1987 Canadian drama about sailor Tom Ridley, directed and produced by "
                    "Mary Castle and starring Paul Grant and Lena Doyle.")
    assert {("Winter Harbour", "directed_by", "Mary Castle"), ("Winter Harbour", "published_by", "Mary Castle"),
            ("Winter Harbour", "cast_member", "Paul Grant"), ("Winter Harbour", "cast_member", "Lena Doyle")} <= got
    assert not any("Tom Ridley" in (h, t) for h, _, t in got)


def test_a_participle_with_a_subject_but_no_auxiliary_gives_no_fact(ex: OfflineExtractor) -> None:
    got = facts(ex, "The Harlow Academy of Leeds was a private girls' school in Leeds, West Yorkshire, England "
                    "established in 1902 by Edith Harlow.")
    assert not any(h in ("England", "West Yorkshire") for h, r, _ in got if r in ("inception", "founded_by"))


def test_a_year_before_a_works_genre_dates_the_work(ex: OfflineExtractor) -> None:
    assert ("Silent Orchard", "publication_date", "1974") in facts(
        ex, "Silent Orchard is a 1974 Danish thriller directed by Karen Holm.")
    assert ("Paper Lanterns", "publication_date", "2011") in facts(
        ex, "The lake appears in the 2011 film Paper Lanterns as the hero's refuge.")
    assert ("Harbour Lights", "publication_date", "1981") in facts(
        ex, "Harbour Lights (1981) was a Scottish television drama created by Ian Moffat.", title="Harbour Lights")
    assert not any(r == "publication_date" for _, r, _ in facts(ex, "Karen Holm is a 1974 graduate of Aarhus."))


def test_a_place_title_names_its_place_and_a_region_of_a_place_lies_in_it(ex: OfflineExtractor) -> None:
    got = facts(ex, "Ashcombe is a village in the Lake District of the United Kingdom.",
                title="Ashcombe, Cumbria")
    assert ("Ashcombe", "located_in", "Lake District") in got
    assert ("Lake District", "located_in", "United Kingdom") in got
