"""Graph-health reads of one memory space (cypher/health/*): the entity graph's counts, names and
near-duplicates, and GDS statistics on a temporary projection of it, as typed rows."""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.repository.base import Repository


@dataclass(frozen=True, slots=True)
class EntityGraphCounts:
    entities: int
    edges: int  # undirected, between distinct entities, parallel facts collapsed
    orphans: int  # entities in no fact


@dataclass(frozen=True, slots=True)
class EntityName:
    id: str
    name: str | None


@dataclass(frozen=True, slots=True)
class FactWithValues:
    id: str
    head: str
    relation: str
    tail: str
    time: str | None
    state: str
    texts: list[str]  # its evidence passages' texts


@dataclass(frozen=True, slots=True)
class NearDuplicateCount:
    embedded: int  # entities with an embedding
    near: int  # of those, with another entity of the space at cosine >= the threshold


@dataclass(frozen=True, slots=True)
class ComponentCount:
    components: int
    largest: int  # nodes in the largest component


class HealthRepository(Repository):
    def entity_graph_counts(self) -> EntityGraphCounts:
        row = self.store.read("health/entity_graph_counts", space=self.space)[0]
        return EntityGraphCounts(row["entities"], row["edges"], row["orphans"])

    def facts_without_evidence(self) -> int:
        return self.store.read("health/facts_without_evidence", space=self.space,
                               retracted=str(FactState.RETRACTED))[0]["facts"]

    def facts_with_values(self, passages: int = 20) -> list[FactWithValues]:
        """Facts (retracted aside) whose head, tail or time holds a digit, with their evidence texts."""
        return [FactWithValues(r["id"], r["head"], r["relation"], r["tail"], r["time"], r["state"], r["texts"])
                for r in self.store.read("health/fact_values", space=self.space, passages=passages,
                                         retracted=str(FactState.RETRACTED))]

    def entity_names(self) -> list[EntityName]:
        return [EntityName(r["id"], r["name"]) for r in self.store.read("health/entity_names", space=self.space)]

    def near_duplicates(self, min_cosine: float, fetch: int) -> NearDuplicateCount:
        """Entities with a neighbour at cosine >= min_cosine among their `fetch` nearest of the space
        (filtered inside the vector search)."""
        row = self.store.read("health/near_duplicates", space=self.space, min_cosine=min_cosine, fetch=fetch)[0]
        return NearDuplicateCount(row["embedded"], row["near"])

    # ----- GDS on a temporary projection of the entity graph ------------------------------------
    def project_entity_graph(self, graph: str) -> None:
        self.store.write("health/project_entity_graph", space=self.space, graph=graph)

    def drop(self, graph: str) -> None:
        self.store.write("admin/drop_graph", name=graph)

    def average_clustering(self, graph: str, concurrency: int) -> float:
        return float(self.store.read("health/clustering", graph=graph, concurrency=concurrency)[0]["average"])

    def components(self, graph: str, concurrency: int) -> ComponentCount:
        row = self.store.read("health/components", graph=graph, concurrency=concurrency)[0]
        return ComponentCount(row["components"], row["largest"])

    def degree_distribution(self, graph: str, concurrency: int) -> dict[int, int]:
        rows = self.store.read("health/degree_distribution", graph=graph, concurrency=concurrency)
        return {r["degree"]: r["nodes"] for r in rows}
