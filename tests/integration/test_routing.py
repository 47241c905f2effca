"""`neo4j://` routing URIs: the driver asks the server for a routing table and sends reads and writes
to the members it names. Every statement runs in a driver-managed transaction (execute_read /
execute_write), which is what lets a routing driver retry on another member; a single server answers
the routing protocol too, so the whole path is exercised here against the local server."""

from __future__ import annotations

from dataclasses import replace

from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.store import GraphStore

SCRIPT = {"CURIE": [("Marie Curie", "born in", "Warsaw", "Person", "Place")],
          "WARSAW": [("Warsaw", "capital of", "Poland", "Place", "Place")]}


def test_ingest_and_search_over_a_routing_uri(neo4j_connection, space, minilm, store):
    routed = replace(neo4j_connection, uri=neo4j_connection.uri.replace("bolt://", "neo4j://"))
    assert routed.uri.startswith("neo4j://")
    base = load_ontology()
    ontology = base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1,
                                                                                      "percentile": None})})
    with GraphStore.connect(routed) as routed_store:
        memory = MemoryGraph(space=space, store=routed_store, ontology=ontology, embedder=minilm,
                             extractor=ScriptedExtractor(SCRIPT), retrieval=RetrievalConfig())
        report = memory.ingest([Document(title="Curie", text="CURIE Marie Curie was born in Warsaw."),
                                Document(title="Warsaw", text="WARSAW Warsaw is the capital of Poland.")],
                               progress=False)
        assert report.facts == 2 and report.failed == 0
        result = memory.search("In which country was Marie Curie born?", method="memgraphrag", top_k=2)
        assert not result.fallback and {p.name for p in result.passages} == {"Curie", "Warsaw"}
        assert memory.search("capital of Poland", method="bm25", top_k=1).passages[0].name == "Warsaw"
        for graph in memory.retrieval.layers.repository.state(memory.retrieval.projections.prefix).graphs:
            routed_store.write("admin/drop_graph", name=graph)
    # what the routed driver wrote is what a direct (bolt://) reader sees
    direct = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm)
    assert direct.stats()["nodes"]["Fact"]["total"] == 2


def test_conflicts_and_retraction_over_a_routing_uri(neo4j_connection, space, minilm, test_store):
    """Adjudication during ingest, a person's verdict, its revert and a retraction, all through a routing
    driver: each is a managed transaction the routing table sends to the writer."""
    from test_adjudication import facts
    from test_retraction_conflicts import docs, memory_of

    from memgraph_neo4j.contracts import ConflictStatus, FactState

    routed = replace(neo4j_connection, uri=neo4j_connection.uri.replace("bolt://", "neo4j://"))
    with GraphStore.connect(routed) as routed_store:
        memory = memory_of(routed_store, space, minilm, threshold=1)
        report = memory.ingest(docs("TURING_A", "TURING_B"), progress=False)
        assert (report.conflicts, report.conflicts_to_review) == (1, 1)
        [turing] = memory.conflicts.list()
        kept = facts(test_store, space)["Alan Turing birth date 1912"]["id"]
        assert memory.conflicts.accept(turing.id, keep=kept).status == ConflictStatus.RESOLVED
        assert facts(test_store, space)["Alan Turing birth date 1913"]["state"] == FactState.DISCARDED
        memory.conflicts.revert(turing.id)
        assert facts(test_store, space)["Alan Turing birth date 1913"]["state"] == FactState.ACTIVE
        memory.retract([d.id for d in docs("TURING_B")])
        assert memory.conflicts.show(turing.id).status == ConflictStatus.OBSOLETE
        assert facts(test_store, space)["Alan Turing birth date 1913"]["state"] == FactState.RETRACTED
