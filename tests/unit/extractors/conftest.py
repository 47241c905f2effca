"""The offline extractor the rule tests read their sentences with (spaCy's pipeline loads once)."""

from __future__ import annotations

import pytest

from memgraph_neo4j.extractors.offline import OfflineExtractor
from memgraph_neo4j.memory.ontology import load_ontology


@pytest.fixture(scope="session")
def ex() -> OfflineExtractor:
    return OfflineExtractor(load_ontology(), ner="spacy")
