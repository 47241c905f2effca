"""What the offline extractor's rule tests share: one sentence of our own per rule, read by one extractor
(the `ex` fixture, conftest.py), its real facts compared (co-occurrence fallbacks left out)."""

from __future__ import annotations

import pytest

from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy

needs_spacy = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


def facts(ex: OfflineExtractor, text: str) -> set[tuple[str, str, str]]:
    """The (head, relation, tail) of the text's real facts."""
    return {(f.head, f.relation, f.tail) for f in ex.extract_text(text).facts if f.relation != CO_OCCURS}
