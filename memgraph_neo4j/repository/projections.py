"""GDS projections of one space: build, drop, export for the in-process engine, PageRank on them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.contracts import FactState, fact_states
from memgraph_neo4j.repository.base import Repository

CO_OCCURS = "co_occurs_with"  # the offline extractor's fallback relation (extractors.offline.CO_OCCURS)


@dataclass(frozen=True, slots=True)
class ProjectionSpec:
    """What goes into a projection (cypher/retrieval/project_graph)."""

    fact_states: list[str]
    pending_weight: float
    type_weight: float
    co_occurrence_weight: float = 1.0

    def params(self, space: str) -> dict[str, Any]:
        return {"space": space, "fact_states": self.fact_states, "pending_weight": self.pending_weight,
                "type_weight": self.type_weight, "pending": str(FactState.PENDING),
                "co_occurs": CO_OCCURS, "co_occurrence_weight": self.co_occurrence_weight}


def projection_spec(config: RetrievalConfig) -> ProjectionSpec:
    """What a retrieval configuration puts into the PPR graph (the projection's name says it too)."""
    return ProjectionSpec(fact_states(config.seeds.schema_filter, config.adjudication),
                          config.effective_pending_weight, config.type_weight, config.co_occurrence_weight)


@dataclass(frozen=True, slots=True)
class NodeColumns:
    """Every node a projection of the space can hold: GDS node id, kind, our id, display name."""

    keys: list[int]
    kinds: list[str]
    ids: list[str]
    names: list[str | None]


@dataclass(frozen=True, slots=True)
class RelationshipColumns:
    sources: list[int]
    targets: list[int]
    weights: list[float]


@dataclass(frozen=True, slots=True)
class RankedRows:
    """One `gds.pageRank.stream` answer: per kind, how many of the `considered` best nodes were of
    that kind and the top ones ({id, name, score, text})."""

    considered: int
    found: dict[str, int]
    top: dict[str, list[dict[str, Any]]]
    mass: dict[str, float] = field(default_factory=dict)  # summed score per kind among the considered


class ProjectionRepository(Repository):
    def project(self, graph: str, spec: ProjectionSpec) -> None:
        self.store.write("retrieval/project_graph", graph=graph, **spec.params(self.space))

    def projection_statement(self) -> str:
        """The projection's Cypher, for a graphdatascience client's `graph.project.cypher`."""
        return self.store.cypher.get("retrieval/project_graph")

    def drop(self, graph: str) -> None:
        self.store.write("admin/drop_graph", name=graph)

    def nodes(self) -> NodeColumns:
        row = self.store.read("retrieval/export_nodes", space=self.space)[0]
        return NodeColumns(row["keys"], row["kinds"], row["ids"], row["names"])

    def relationships(self, graph: str) -> RelationshipColumns:
        row = self.store.read("retrieval/export_relationships", graph=graph)[0]
        return RelationshipColumns(row["sources"], row["targets"], row["weights"])

    def pagerank(self, graph: str, seeds: dict[str, list[list[Any]]], top_k: int, top_m: int,
                 candidates: int, damping: float, iterations: int, tolerance: float,
                 concurrency: int) -> RankedRows:
        rows = self.store.read("retrieval/ppr", space=self.space, graph=graph, entity_seeds=seeds["entity"],
                               type_seeds=seeds["type"], passage_seeds=seeds["passage"], damping=damping,
                               iterations=iterations, tolerance=tolerance, concurrency=concurrency,
                               candidates=candidates, top_k=top_k, top_m=top_m)
        return RankedRows(rows[0]["considered"] if rows else 0, {r["kind"]: r["found"] for r in rows},
                          {r["kind"]: r["top"] for r in rows}, {r["kind"]: r["mass"] for r in rows})

    def pagerank_all(self, graph: str, seeds: dict[str, list[list[Any]]], top_k: int, top_m: int,
                     damping: float, iterations: int, tolerance: float, concurrency: int) -> RankedRows:
        """`pagerank` with every scored node resolved: `mass` sums every passage (cypher/retrieval/ppr_all)."""
        rows = self.store.read("retrieval/ppr_all", space=self.space, graph=graph, entity_seeds=seeds["entity"],
                               type_seeds=seeds["type"], passage_seeds=seeds["passage"], damping=damping,
                               iterations=iterations, tolerance=tolerance, concurrency=concurrency,
                               top_k=top_k, top_m=top_m)
        return RankedRows(sum(r["found"] for r in rows), {r["kind"]: r["found"] for r in rows},
                          {r["kind"]: r["top"] for r in rows}, {r["kind"]: r["mass"] for r in rows})
