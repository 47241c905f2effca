"""A small memory with known content, built through MemoryGraph.ingest with a scripted extractor, for the
Browser guide queries and the analytics pack (tests/integration/test_browser.py, test_analytics.py).

Two ingests, promotion threshold 2, offline adjudication rules:

1. NEWTON_A, CURIE_A: born_in is supported twice and becomes stable; birth_date, knows stay candidates.
2. NEWTON_B, LOVELACE, CURIE_B: birth_date and knows become stable; born_in reaches 4 passages;
   died_in and translated stay candidates (seen once). Newton's two birth years clash (mutual
   exclusion, left for review); Curie's Warsaw twice (once dated) is a duplicate the rules merge.
"""

from __future__ import annotations

from test_adjudication import TimedScript, Triple

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology

FIRST: dict[str, list[Triple]] = {
    "NEWTON_A": [("Isaac Newton", "birth_date", "1643", "Person", "Date", None),
                 ("Isaac Newton", "born_in", "Woolsthorpe", "Person", "Place", None)],
    "CURIE_A": [("Marie Curie", "born_in", "Warsaw", "Person", "Place", None),
                ("Marie Curie", "knows", "Henri Becquerel", "Person", "Person", None)],
}
SECOND: dict[str, list[Triple]] = {
    "NEWTON_B": [("Isaac Newton", "birth_date", "1645", "Person", "Date", None),
                 ("Isaac Newton", "died_in", "London", "Person", "Place", None)],
    "LOVELACE": [("Ada Lovelace", "born_in", "London", "Person", "Place", None),
                 ("Ada Lovelace", "knows", "Charles Babbage", "Person", "Person", None),
                 ("Ada Lovelace", "translated", "Sketch of the Analytical Engine", "Person", "Work", None)],
    "CURIE_B": [("Marie Curie", "born_in", "Warsaw", "Person", "Place", "1867")],
}


ScriptedExtractor = TimedScript  # facts (with times) keyed by a marker word in the chunk


def _docs(script: dict[str, list[Triple]]) -> list[Document]:
    return [Document(title=key.title(), text=f"{key} passage about {key.lower()}.") for key in script]


def build_known_memory(store, space: str, embedder) -> MemoryGraph:
    base = load_ontology()
    ontology = base.model_copy(update={"promotion": base.promotion.model_copy(
        update={"threshold": 2, "percentile": None})})
    memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=embedder,
                         extractor=ScriptedExtractor({**FIRST, **SECOND}))
    memory.ingest(_docs(FIRST), progress=False)
    memory.ingest(_docs(SECOND), progress=False)
    return memory
