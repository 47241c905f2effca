"""The shared path of the graph methods: layer hits -> seed weights -> personalised PageRank.

Embed the query once; take the top facts, schemas and passages of the space (retrieval/layers.py);
turn them into restart weights (the subclass's `seed`, pure formulas in retrieval/seeds.py); run
PageRank on the space's projection for the current memory version (built only when the memory
changed). When nothing of the memory seeds the walk, the dense passages are returned instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from memgraph_neo4j.contracts import fact_states, schema_states
from memgraph_neo4j.repository.layers import LayerHits, LayerRequest
from memgraph_neo4j.retrieval import seeds as seed_math
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer
from memgraph_neo4j.retrieval.context import RetrievalContext
from memgraph_neo4j.retrieval.dense import passage_hits
from memgraph_neo4j.retrieval.ppr import Seeds

FACTS_READ = 50  # facts read when every fact above the threshold may seed (SeedConfig.top_k_facts=None)


class GraphRetriever(ABC):
    method: str

    def __init__(self, context: RetrievalContext) -> None:
        self.context = context
        config = context.config
        self.seed_config = config.seeds
        self.fact_states = fact_states(config.seeds.schema_filter, config.adjudication)
        self.schema_states = schema_states(config.seeds.schema_filter)

    @property
    @abstractmethod
    def schema_count(self) -> int:
        """Schemas read per query (0: the method has no type seeds)."""

    @abstractmethod
    def seed(self, hits: LayerHits, stats: seed_math.SeedStatistics) -> tuple[dict[str, float],
                                                                              list[seed_math.FactHit]]:
        """Restart weights by node id, and the facts that seeded them."""

    def requests(self) -> list[LayerRequest]:
        config = self.context.config
        wanted = [LayerRequest("facts", self.seed_config.top_k_facts or FACTS_READ, 0, self.fact_states),
                  LayerRequest("schemas", self.schema_count, 0, self.schema_states),
                  LayerRequest("passages", config.top_n_passages, 0)]
        return [r for r in wanted if r.k > 0]

    def search(self, question: str, top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        ctx, timer = self.context, StageTimer()
        vector = ctx.embed(question)
        timer.lap("embed")
        state, hits = ctx.layers.search(vector, self.requests())
        dense = passage_hits(hits.passages)
        timer.lap("vector")
        entity_ids = sorted({i for f in hits.facts for i in (f.head_id, f.tail_id)})
        type_ids = sorted({t for s in hits.schemas for t in (s.head_type, s.tail_type)})
        stats = ctx.statistics.lookup(state.version, entity_ids, type_ids, [p.id for p in hits.passages])
        weights, used_facts = self.seed(hits, stats)
        timer.lap("seeding")
        entities, types = set(entity_ids), set(type_ids)
        seeds = Seeds(
            entity=[[k, w] for k, w in weights.items() if k in entities],
            # without entity-type edges the Type nodes are not in the projection: they cannot seed
            type=[[k, w] for k, w in weights.items() if k in types] if ctx.config.type_weight > 0 else [],
            passage=[[k, w] for k, w in weights.items() if k not in entities and k not in types])
        if not seeds.entity and not seeds.type:  # nothing from the memory: plain dense retrieval
            return ctx.finish(RetrievalResult(method=self.method, passages=dense[:top_k], fallback=True), timer,
                              version=state.version)
        graph = ctx.projections.ensure(state)
        ctx.engine.prepare(graph)  # e.g. the local engine's export, once per projection
        timer.lap("projection")
        ranked = ctx.engine.rank(graph, seeds, top_k, top_m)
        timer.lap("ppr")
        fact_text = {f.id: f.text for f in hits.facts}
        return ctx.finish(RetrievalResult(
            method=self.method,
            passages=ranked.get("passage", []),
            entities=ranked.get("entity", []),
            facts=[Hit(id=f.fact_id, score=f.score, text=fact_text.get(f.fact_id)) for f in used_facts],
            schemas=[Hit(id=s.id, score=s.score, text=s.text) for s in hits.schemas
                     if s.score > self.seed_config.schema_threshold],
        ), timer, known=dense, version=state.version)


def seed_hits(hits: LayerHits) -> tuple[list[seed_math.FactHit], list[seed_math.SchemaHit],
                                        list[seed_math.PassageHit]]:
    """The layer hits as the seed formulas take them."""
    return ([seed_math.FactHit(f.id, f.score, f.head_id, f.tail_id) for f in hits.facts],
            [seed_math.SchemaHit(s.id, s.score, s.head_type, s.tail_type) for s in hits.schemas],
            [seed_math.PassageHit(p.id, p.score) for p in hits.passages])
