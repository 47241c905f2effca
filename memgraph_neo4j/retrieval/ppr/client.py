"""PageRank and projections through a `graphdatascience.GraphDataScience` client object."""

from __future__ import annotations

from typing import Any

import numpy as np

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.projections import ProjectionRepository, ProjectionSpec
from memgraph_neo4j.retrieval.ppr import Ranking, Seeds
from memgraph_neo4j.retrieval.ppr.local import NodeTable, ranked


class ClientEngine:
    def __init__(self, repository: ProjectionRepository, config: RetrievalConfig, gds: Any = None) -> None:
        if gds is None:
            from graphdatascience import GraphDataScience

            store = repository.store
            gds = GraphDataScience(store.driver, database=store.database, arrow=False, show_progress=False)
        self.gds, self.repository, self.config = gds, repository, config
        self._nodes: tuple[str, NodeTable] | None = None

    def projection_exists(self, graph: str, listed: tuple[str, ...]) -> bool:
        return bool(self.gds.graph.exists(graph))  # the client's GDS may not be the database's

    def graphs(self, prefix: str, listed: tuple[str, ...]) -> list[str]:
        return [info.graph_name for info in self.gds.graph.list() if info.graph_name.startswith(prefix)]

    def project(self, graph: str, spec: ProjectionSpec) -> None:
        self.gds.graph.project.cypher(self.repository.projection_statement(), graph=graph,
                                      **spec.params(self.repository.space))

    def drop(self, graph: str) -> None:
        self.gds.graph.drop(graph, fail_if_missing=False)

    def prepare(self, graph: str, version: int | None = None) -> None:
        self.node_table(graph)

    def node_table(self, graph: str) -> NodeTable:
        if self._nodes is None or self._nodes[0] != graph:
            self._nodes = (graph, NodeTable.from_columns(self.repository.nodes()))
        return self._nodes[1]

    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int, mass: bool = False) -> Ranking:
        nodes, config = self.node_table(graph), self.config
        sources = [(nodes.keys[row], float(w)) for kind, kind_seeds in seeds.by_kind() for node_id, w in kind_seeds
                   if (row := nodes.row(kind, node_id)) is not None]
        frame = self.gds.page_rank.stream(
            self.gds.graph.get(graph), source_nodes=sources, damping_factor=config.damping,
            max_iterations=config.iterations, tolerance=config.tolerance, concurrency=config.concurrency,
            relationship_weight_property="weight", log_progress=False)
        scores = np.zeros(len(nodes.keys))
        rows = nodes.rows_of_keys(frame["nodeId"].to_numpy())
        known = rows >= 0
        scores[rows[known]] = frame["score"].to_numpy()[known]
        return ranked(nodes, scores, top_k, top_m)
