"""HippoRAG 2 on the MemGraphRAG memory: the top facts' entities (weighted by 1 / #passages) and the
dense passages seed PageRank; no similarity threshold and no type seeds."""

from __future__ import annotations

from memgraph_neo4j.repository.layers import LayerHits
from memgraph_neo4j.retrieval import seeds as seed_math
from memgraph_neo4j.retrieval.graph_search import GraphRetriever, seed_hits


class HippoRAG2Retriever(GraphRetriever):
    method = "hipporag2"
    schema_count = 0

    def seed(self, hits: LayerHits, stats: seed_math.SeedStatistics, named: list[str],
             titled: list[str]) -> tuple[dict[str, float], list[seed_math.FactHit]]:
        facts, _, passages = seed_hits(hits)
        top = self.seed_config.top_k_facts
        weights = seed_math.hipporag2_seeds(facts, passages, entity_passage_count=stats.entity_passages,
                                            alpha=self.seed_config.alpha, top_k_facts=top)
        return weights, facts[:top]
