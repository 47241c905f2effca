"""The Cypher analytics pack (cypher/analytics/*): tables about one memory space, by name.

Each query is a plain statement you can also paste into Neo4j Browser; here the states it needs come
from contracts (never literals in the Cypher) and the PageRank one runs on a temporary GDS projection
of the entity graph (the projection of health/, dropped afterwards)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.contracts import FactState, SchemaState
from memgraph_neo4j.repository.base import Repository


@dataclass(frozen=True)
class AnalyticsQuery:
    name: str
    purpose: str
    limit: bool = True  # takes `limit` (rows returned)
    states: dict[str, str] = field(default_factory=dict)  # state parameters the statement needs


QUERIES: dict[str, AnalyticsQuery] = {q.name: q for q in (
    AnalyticsQuery("schema_frequency", "schemas ranked by frequency (supporting passages), with state and facts",
                   states={"active": FactState.ACTIVE}),
    AnalyticsQuery("promotion_history", "stable schemas in promotion order, frequency then (reconstructed) and now",
                   states={"stable": SchemaState.STABLE}),
    AnalyticsQuery("entity_degree", "entities by degree: facts, distinct neighbours, mentioning passages"),
    AnalyticsQuery("entity_pagerank", "entities by PageRank on the entity graph (GDS, temporary projection)"),
    AnalyticsQuery("facts_per_passage", "distribution: how many passages cite 0, 1, 2 ... facts", limit=False),
    AnalyticsQuery("conflict_statistics", "conflicts by type and status: count, facts, mean confidence",
                   limit=False),
    AnalyticsQuery("fact_profile", "passages (without facts), active facts (co-occurrence only), entities (orphans)",
                   limit=False, states={"active": FactState.ACTIVE}),
    AnalyticsQuery("entity_merges", "names that joined an entity by similarity, with the evidence (memory/resolve.py)"),
    AnalyticsQuery("facts_without_evidence", "facts that cite no passage, retracted ones aside (must be none)",
                   states={"retracted": FactState.RETRACTED}),
)}

DEFAULT_LIMIT = 50
CONCURRENCY = 4  # GDS threads: the server is shared with ingest and retrieval


class AnalyticsRepository(Repository):
    def run(self, name: str, limit: int = DEFAULT_LIMIT) -> list[dict[str, Any]]:
        """The rows of one analytics query (`QUERIES` names them)."""
        query = QUERIES.get(name)
        if query is None:
            raise ValueError(f"no analytics query {name!r}; choose one of: {', '.join(QUERIES)}")
        if limit < 1:
            raise ValueError(f"limit must be >= 1, not {limit}")
        if name == "entity_pagerank":
            return self._pagerank(limit)
        params: dict[str, Any] = {"space": self.space, **query.states}
        if query.limit:
            params["limit"] = limit
        return self.store.read(f"analytics/{name}", **params)

    def _pagerank(self, limit: int) -> list[dict[str, Any]]:
        graph = f"analytics_{self.space}_{uuid.uuid4().hex[:8]}"
        try:
            projected = self.store.write("health/project_entity_graph", space=self.space, graph=graph)
            if not projected or projected[0]["projection"] is None:  # no entity: nothing was projected
                return []
            return self.store.read("analytics/entity_pagerank", graph=graph, concurrency=CONCURRENCY, limit=limit)
        finally:
            self.store.write("admin/drop_graph", name=graph)
