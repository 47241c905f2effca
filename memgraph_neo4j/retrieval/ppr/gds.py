"""PageRank in the database's GDS (the reference engine)."""

from __future__ import annotations

from memgraph_neo4j.retrieval.base import Hit
from memgraph_neo4j.retrieval.ppr import Ranking, Seeds, StoreProjections


class GdsEngine(StoreProjections):
    def rank(self, graph: str, seeds: Seeds, top_k: int, top_m: int, mass: bool = False) -> Ranking:
        config, candidates = self.config, self.config.ppr_candidates
        seed_lists = dict(seeds.by_kind())
        if mass:  # every passage summed: the exact mass (~30 ms more on MuSiQue, cypher/retrieval/ppr_all)
            rows = self.repository.pagerank_all(graph, seed_lists, top_k, top_m, config.damping,
                                                config.iterations, config.tolerance, config.concurrency)
            return Ranking({kind: [Hit(**h) for h in top] for kind, top in rows.top.items()},
                           rows.mass.get("passage", 0.0))
        while True:
            rows = self.repository.pagerank(graph, seed_lists, top_k, top_m, candidates, config.damping,
                                            config.iterations, config.tolerance, config.concurrency)
            enough = rows.found.get("passage", 0) >= top_k and rows.found.get("entity", 0) >= top_m
            if enough or rows.considered < candidates:  # every scored node was considered
                return Ranking({kind: [Hit(**h) for h in top] for kind, top in rows.top.items()},
                               rows.mass.get("passage", 0.0))
            candidates *= 8
