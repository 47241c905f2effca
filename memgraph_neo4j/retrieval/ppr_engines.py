"""Personalised PageRank engines behind one interface: one projection, one ranking, three ways to run it.

- `GdsEngine` ("gds", the default): `gds.pageRank.stream` through cypher/retrieval/ppr, which resolves
  only the best-scored nodes on the server (exact top-k, see that file).
- `LocalEngine` ("local"): the same iteration in process on a copy of the projection (ppr_local).
- `ClientEngine` ("client"): everything through a `graphdatascience` client object: the projection
  (`gds.graph.project.cypher`), its catalog and `gds.page_rank.stream`. Hand it the client of a GDS
  server next to a cluster to run PageRank there. Against a local server it is the slow path: the
  client streams one row per node (19,854 rows, ~0.6 s on the MuSiQue memory).

Projections are named by the Retriever and built from cypher/retrieval/project_graph; an engine
only decides where they live and how PageRank runs on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from memgraph_neo4j.retrieval import ppr_local
from memgraph_neo4j.store import GraphStore

if TYPE_CHECKING:
    from memgraph_neo4j.retrieval.engine import RetrievalConfig

Ranked = dict[str, list[dict[str, Any]]]  # kind ("passage", "entity") -> [{id, name, score[, text]}]


@dataclass
class Seeds:
    entity: list[list[Any]] = field(default_factory=list)  # [[id, weight], ...]
    type: list[list[Any]] = field(default_factory=list)
    passage: list[list[Any]] = field(default_factory=list)

    def by_kind(self) -> tuple[tuple[str, list[list[Any]]], ...]:
        return ("entity", self.entity), ("type", self.type), ("passage", self.passage)


class PprEngine(Protocol):
    def projection_exists(self, graph: str, known: bool | None) -> bool: ...

    def graphs(self, prefix: str) -> list[str]: ...

    def project(self, graph: str, params: dict[str, Any]) -> None: ...

    def drop(self, graph: str) -> None: ...

    def prepare(self, graph: str) -> None:
        """Per-projection set-up before the first ranking (exports), so it is timed as projection work."""

    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int) -> Ranked: ...


class _StoreProjections:
    """Projections in the GDS of the database the store talks to."""

    def __init__(self, store: GraphStore, space: str, config: RetrievalConfig) -> None:
        self.store, self.space, self.config = store, space, config

    def projection_exists(self, graph: str, known: bool | None) -> bool:
        return bool(known)  # the multi-layer query already asked this database's GDS

    def graphs(self, prefix: str) -> list[str]:
        return [row["graph"] for row in self.store.read("retrieval/list_graphs", prefix=prefix)]

    def project(self, graph: str, params: dict[str, Any]) -> None:
        self.store.write("retrieval/project_graph", graph=graph, **params)

    def drop(self, graph: str) -> None:
        self.store.write("admin/drop_graph", name=graph)

    def prepare(self, graph: str) -> None:
        pass


class GdsEngine(_StoreProjections):
    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int) -> Ranked:
        c, candidates = self.config, self.config.ppr_candidates
        while True:
            rows = self.store.read("retrieval/ppr", space=self.space, graph=graph, entity_seeds=seeds.entity,
                                   type_seeds=seeds.type, passage_seeds=seeds.passage, damping=c.damping,
                                   iterations=c.iterations, tolerance=c.tolerance, concurrency=c.concurrency,
                                   candidates=candidates, top_k=top_k, top_m=top_m)
            found = {r["kind"]: r["found"] for r in rows}
            considered = rows[0]["considered"] if rows else 0
            enough = found.get("passage", 0) >= top_k and found.get("entity", 0) >= top_m
            if enough or considered < candidates:  # every scored node was considered
                return {r["kind"]: r["top"] for r in rows}
            candidates *= 8


def read_node_table(store: GraphStore, space: str) -> ppr_local.NodeTable:
    row = store.read("retrieval/export_nodes", space=space)[0]
    return ppr_local.NodeTable(row["keys"], row["kinds"], row["ids"], row["names"])


class LocalEngine(_StoreProjections):
    def __init__(self, store: GraphStore, space: str, config: RetrievalConfig) -> None:
        super().__init__(store, space, config)
        self.exports = 0  # observable: tests assert one export per projection
        self._copy: tuple[str, ppr_local.LocalGraph] | None = None

    def local_graph(self, graph: str) -> ppr_local.LocalGraph:
        """The in-process copy of projection `graph`, exported once per projection."""
        if self._copy is None or self._copy[0] != graph:
            nodes = read_node_table(self.store, self.space)
            rels = self.store.read("retrieval/export_relationships", graph=graph)[0]
            self._copy = (graph, ppr_local.build_local_graph(nodes, rels["sources"], rels["targets"], rels["weights"]))
            self.exports += 1
        return self._copy[1]

    def prepare(self, graph: str) -> None:
        self.local_graph(graph)

    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int) -> Ranked:
        local, c = self.local_graph(graph), self.config
        teleport = np.zeros(local.node_count)
        for kind, kind_seeds in seeds.by_kind():
            for node_id, weight in kind_seeds:
                row = local.nodes.row(kind, node_id)
                if row is not None:  # only seeds of projected kinds reach here; unknown ids carry no mass
                    teleport[row] += weight
        scores = ppr_local.personalized_pagerank(local.transition_t, teleport, c.damping, c.iterations, c.tolerance)
        return ppr_local.ranked(local.nodes, scores, top_k, top_m)


class ClientEngine:
    """PageRank and projections through a `graphdatascience.GraphDataScience` object."""

    def __init__(self, store: GraphStore, space: str, config: RetrievalConfig, gds: Any = None) -> None:
        if gds is None:
            from graphdatascience import GraphDataScience

            gds = GraphDataScience(store.driver, database=store.database, arrow=False, show_progress=False)
        self.gds, self.store, self.space, self.config = gds, store, space, config
        self._nodes: tuple[str, ppr_local.NodeTable] | None = None

    def projection_exists(self, graph: str, known: bool | None) -> bool:
        return bool(self.gds.graph.exists(graph))  # the client's GDS may not be the database's

    def graphs(self, prefix: str) -> list[str]:
        return [info.graph_name for info in self.gds.graph.list() if info.graph_name.startswith(prefix)]

    def project(self, graph: str, params: dict[str, Any]) -> None:
        query = self.store.cypher.get("retrieval/project_graph")
        self.gds.graph.project.cypher(query, graph=graph, **params)

    def drop(self, graph: str) -> None:
        self.gds.graph.drop(graph, fail_if_missing=False)

    def prepare(self, graph: str) -> None:
        self.node_table(graph)

    def node_table(self, graph: str) -> ppr_local.NodeTable:
        if self._nodes is None or self._nodes[0] != graph:
            self._nodes = (graph, read_node_table(self.store, self.space))
        return self._nodes[1]

    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int) -> Ranked:
        nodes, c = self.node_table(graph), self.config
        sources = [(nodes.keys[row], float(w)) for kind, kind_seeds in seeds.by_kind() for node_id, w in kind_seeds
                   if (row := nodes.row(kind, node_id)) is not None]
        frame = self.gds.page_rank.stream(
            self.gds.graph.get(graph), source_nodes=sources, damping_factor=c.damping, max_iterations=c.iterations,
            tolerance=c.tolerance, concurrency=c.concurrency, relationship_weight_property="weight",
            log_progress=False)
        scores = np.zeros(len(nodes.keys))
        rows = nodes.rows_of_keys(frame["nodeId"].to_numpy())
        known = rows >= 0
        scores[rows[known]] = frame["score"].to_numpy()[known]
        return ppr_local.ranked(nodes, scores, top_k, top_m)
