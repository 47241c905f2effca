"""A passage's title in quotes that the parse reads as a clause ('"Hard to Say Goodbye" is a song': csubj) is still
the sentence's subject, and the topic "it" stands for. One passage of our own."""

from __future__ import annotations

import pytest

from memgraph_neo4j.contracts import ExtractionInput
from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy
from memgraph_neo4j.memory.ontology import load_ontology

pytestmark = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


def test_a_title_read_as_a_clausal_subject_is_the_subject() -> None:
    title = "Hard to Say Goodbye"
    text = f'"{title}" is a song recorded by American singer Mary Vance for her second album. ' \
           "It was written by Tom Reed and Alan Cole."
    [out] = OfflineExtractor(load_ontology(), ner="spacy").extract(
        [ExtractionInput(passage_id="1", doc_id="1", text=text, title=title)])
    assert out.extraction is not None
    got = {(f.head, f.relation, f.tail) for f in out.extraction.facts if f.relation != CO_OCCURS}
    assert {(title, "performed_by", "Mary Vance"), (title, "created_by", "Tom Reed")} <= got


def test_the_name_in_its_own_languages_order_in_brackets_is_the_same_person() -> None:
    title = "Kenta Mori"
    text = f"{title} (森 健太, Mori Kenta, born 4 May 1990, in Sendai) is a Japanese footballer."
    [out] = OfflineExtractor(load_ontology(), ner="spacy").extract(
        [ExtractionInput(passage_id="1", doc_id="1", text=text, title=title)])
    assert out.extraction is not None
    got = {(f.head, f.relation, f.tail) for f in out.extraction.facts if f.relation != CO_OCCURS}
    assert (title, "birth_date", "4 May 1990") in got
    assert not any(h == "Mori Kenta" for h, _, _ in got)
