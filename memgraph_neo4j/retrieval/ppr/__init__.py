"""Personalised PageRank engines behind one interface: one projection, one ranking, three ways to run it.

- `gds` (the reference, ppr/gds.py): `gds.pageRank.stream` through cypher/retrieval/ppr, which
  resolves only the best-scored nodes on the server (exact top-k, see that file).
- `local` (ppr/local.py): the same iteration in process on a copy of the projection, or on
  projections of millions of relationships forward push to the same fixed point (ppr/push.py).
- `client` (ppr/client.py): everything through a `graphdatascience` client object. Hand it the
  client of a GDS server next to a cluster to run PageRank there. Against a local server it is the
  slow path: the client streams one row per node (19,854 rows, ~0.6 s on the MuSiQue memory).

Projections are named by retrieval/projection.py and built from cypher/retrieval/project_graph;
an engine only decides where they live and how PageRank runs on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.projections import ProjectionRepository, ProjectionSpec
from memgraph_neo4j.retrieval.base import Hit


class Ranking(dict[str, list[Hit]]):
    """"passage" -> top_k, "entity" -> top_m, best first; `passage_mass`: the summed PageRank score of
    the space's passages (what memgraphrag's fusion divides by, retrieval/fusion.py). The local and
    client engines sum every passage; the gds engine too when asked for the mass (cypher/retrieval/
    ppr_all), else those among the nodes it resolved (the best `ppr_candidates` at least)."""

    def __init__(self, hits: dict[str, list[Hit]], passage_mass: float) -> None:
        super().__init__(hits)
        self.passage_mass = passage_mass


@dataclass
class Seeds:
    entity: list[list[Any]] = field(default_factory=list)  # [[id, weight], ...]
    type: list[list[Any]] = field(default_factory=list)
    passage: list[list[Any]] = field(default_factory=list)

    def by_kind(self) -> tuple[tuple[str, list[list[Any]]], ...]:
        return ("entity", self.entity), ("type", self.type), ("passage", self.passage)


class PprEngine(Protocol):
    def projection_exists(self, graph: str, listed: tuple[str, ...]) -> bool:
        """Whether `graph` exists; `listed` are the database's projections of the space."""

    def graphs(self, prefix: str, listed: tuple[str, ...]) -> list[str]:
        """Projections whose names start with `prefix`."""

    def project(self, graph: str, spec: ProjectionSpec) -> None: ...

    def drop(self, graph: str) -> None: ...

    def prepare(self, graph: str, version: int | None = None) -> None:
        """Per-projection set-up before the first ranking (exports), so it is timed as projection work."""

    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int, mass: bool = False) -> Ranking:
        """`mass`: the ranking's passage_mass must be every passage's (the gds engine otherwise sums
        only the nodes it resolved)."""


class StoreProjections:
    """Projections in the GDS of the database the store talks to."""

    def __init__(self, repository: ProjectionRepository, config: RetrievalConfig) -> None:
        self.repository, self.config = repository, config

    def projection_exists(self, graph: str, listed: tuple[str, ...]) -> bool:
        return graph in listed  # the memory-state read already listed this database's projections

    def graphs(self, prefix: str, listed: tuple[str, ...]) -> list[str]:
        return [g for g in listed if g.startswith(prefix)]

    def project(self, graph: str, spec: ProjectionSpec) -> None:
        self.repository.project(graph, spec)

    def drop(self, graph: str) -> None:
        self.repository.drop(graph)

    def prepare(self, graph: str, version: int | None = None) -> None:
        pass


def make_engine(repository: ProjectionRepository, config: RetrievalConfig, gds: Any = None,
                feed: Any = None) -> PprEngine:
    """The engine `config.ppr_engine` names; `gds`: a graphdatascience client for "client"; `feed`: the
    space's changes (retrieval/changes.py), which the local engine's graph copy follows."""
    if config.ppr_engine == "local":
        from memgraph_neo4j.retrieval.ppr.local import LocalEngine

        return LocalEngine(repository, config, feed)
    if config.ppr_engine == "client":
        from memgraph_neo4j.retrieval.ppr.client import ClientEngine

        return ClientEngine(repository, config, gds)
    from memgraph_neo4j.retrieval.ppr.gds import GdsEngine

    return GdsEngine(repository, config)
