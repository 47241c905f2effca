"""MemGraphRAG retrieval (paper §4.3): entity, type and passage seeds from eq. 6-8
(retrieval/seeds.py) over the fact, schema and passage layers, then personalised PageRank. By default
the entities the question names seed too (retrieval/question_entities.py), and the PageRank ranking
is fused with BM25 and dense similarity (retrieval/fusion.py); `SeedConfig.paper()` with
`fusion="none"` is the paper as written."""

from __future__ import annotations

from memgraph_neo4j.repository.layers import LayerHits
from memgraph_neo4j.retrieval import seeds as seed_math
from memgraph_neo4j.retrieval.graph_search import GraphRetriever, seed_hits


class MemGraphRAGRetriever(GraphRetriever):
    method = "memgraphrag"

    @property
    def schema_count(self) -> int:
        return self.context.config.top_k_schemas

    names_entities = True

    @property
    def fuses(self) -> bool:
        return self.context.config.fusion == "shares"

    def seed(self, hits: LayerHits, stats: seed_math.SeedStatistics, named: list[str],
             titled: list[str]) -> tuple[dict[str, float], list[seed_math.FactHit]]:
        facts, schemas, passages = seed_hits(hits)
        config = self.seed_config
        weights = seed_math.memgraphrag_seeds(facts, schemas, passages, stats, config, named, titled)
        return weights, seed_math.select_facts(facts, config.fact_threshold, config.top_k_facts)
