"""Offline extractor: entities and facts from text with NO LLM and NO network.

It is plainly weaker than an LLM extractor: it finds named entities by spaCy (when spaCy and
an English model are installed) or by a built-in heuristic (capitalised spans, dates,
quantities), and relations only where a short, high-precision pattern links two mentions of
one sentence (``X was born in Y``, ``X, the capital of Y``, ``X is a city in Y``,
``X directed Y`` ...), mapped to the ontology's relation names. Everything else two entities
share is a bounded same-sentence ``co_occurs_with`` edge: a relation-free entity graph, which
is what LLM-free GraphRAG peers (LinearRAG) build and still retrieve well with.

Guarantees: every entity is a span of the chunk (so every fact is grounded in it; "He"/"She"
at a sentence start stands for the chunk's first named entity, itself a span), usage is
zero, and the output depends only on the text, the ontology and the embedder (deterministic).
Types come from rules (dates, quantities, head words), the spaCy label, the ontology's
domain/range of a matched relation, then ``TypeAssigner`` when an embedder is given, else
``Thing``.
"""

from memgraph_neo4j.extractors.offline.extractor import CO_OCCURS, OfflineExtractor
from memgraph_neo4j.extractors.offline.ner import load_spacy

__all__ = ["CO_OCCURS", "OfflineExtractor", "load_spacy"]
