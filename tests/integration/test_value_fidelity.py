"""Resolution never rewrites a value: a date merged into another date by embedding similarity made every
fact of the one carry the other ("June 8, 1969" became "December 4, 1969": MiniLM puts them at cosine 0.912,
over the 0.9 merge threshold). Graph health reports the facts whose numbers no evidence passage states."""

from __future__ import annotations

from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.evaluation.health import graph_health

SCRIPT = {
    "ALICE": [("Alice Marsh", "born on", "December 4, 1969", "Person", "Date")],
    "BOB": [("Bob Hale", "born on", "June 8, 1969", "Person", "Date"),
            ("Bob Hale", "born on", "4 December 1969", "Person", "Date")],  # the first date, written otherwise
    "CAROL": [("Carol Penn", "born on", "7 March 1970", "Person", "Date")],  # the extractor misread the passage
}


def test_a_date_is_never_merged_into_another_date(store, test_store, space, minilm):
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor=ScriptedExtractor(SCRIPT))
    try:
        memory.ingest("ALICE Alice Marsh was born on December 4, 1969.", progress=False)
        memory.ingest("BOB Bob Hale was born on June 8, 1969, not on 4 December 1969.", progress=False)
        facts = {(f["head"], f["tail"]) for f in test_store.read("facts_by_relation", space=space)}
        assert ("Bob Hale", "June 8, 1969") in facts and ("Bob Hale", "December 4, 1969") not in facts
        ids = memory.entity_ids(["December 4, 1969", "June 8, 1969", "4 December 1969"])
        assert ids["June 8, 1969"] != ids["December 4, 1969"] == ids["4 December 1969"]  # the same date merges
        health = graph_health(store, space)
        assert (health.facts_with_values, health.values_unstated) == (3, 0)
        memory.ingest("CAROL Carol Penn was born on 7 May 1970.", progress=False)
        health = graph_health(store, space)
        assert (health.facts_with_values, health.values_unstated) == (4, 1)
        assert health.values_unstated_examples == ["Carol Penn | birth_date | 7 March 1970"]
    finally:
        memory.close()
