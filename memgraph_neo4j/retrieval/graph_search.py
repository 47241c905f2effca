"""The shared path of the graph methods: layer hits -> seed weights -> personalised PageRank.

Embed the query once, and meanwhile, on a reader thread of the context, read what needs no vector
(the memory version, the question's names, the fusion's BM25; `RetrievalConfig.concurrent_reads`);
take the top facts, schemas and passages of the space (retrieval/layers.py)
and the entities the question names (retrieval/question_entities.py, for methods that use them);
turn them into restart weights (the subclass's `seed`, pure formulas in retrieval/seeds.py); run
PageRank on the space's projection for the current memory version (built only when the memory
changed); for methods that fuse, add each route's share (retrieval/fusion.py). When nothing of the
memory seeds the walk, the dense passages (fused with BM25, for methods that fuse) are returned.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import nullcontext
from dataclasses import dataclass

from memgraph_neo4j.contracts import fact_states, schema_states
from memgraph_neo4j.memory.normalize import bounded_key
from memgraph_neo4j.repository.layers import LayerHits, LayerRequest, MemoryState
from memgraph_neo4j.repository.search import QuestionNames
from memgraph_neo4j.retrieval import seeds as seed_math
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer, one_blas_thread
from memgraph_neo4j.retrieval.bm25_index import Bm25Hits
from memgraph_neo4j.retrieval.context import RetrievalContext
from memgraph_neo4j.retrieval.dense import passage_hits
from memgraph_neo4j.retrieval.fusion import Route, fuse
from memgraph_neo4j.retrieval.ppr import Ranking, Seeds
from memgraph_neo4j.retrieval.projection import error_text
from memgraph_neo4j.retrieval.question_entities import Span, candidate_spans, longest_matches, titled_passages
from memgraph_neo4j.retrieval.stopwords import without_function_words, without_stop_words

FACTS_READ = 50  # facts read when every fact above the threshold may seed (SeedConfig.top_k_facts=None)
# passages each route hands to the fusion; a passage below them gets no share of it. The same for every
# engine: GDS handing it 20 (to resolve fewer nodes) ranked 3 of 30 MuSiQue questions' top 5 otherwise
FUSION_DEPTH = 100
# searches at a newer version after the projection read vanished: one retry lost the race twice in CI
# (8 search threads at a load average of 6-9 while an ingest wrote a version per batch)
VANISHED_ATTEMPTS = 5


@dataclass(frozen=True)
class Ahead:
    """What a search read while its question was embedded (GraphRetriever.read_ahead)."""

    state: MemoryState  # the memory's version and this space's projections
    spans: list[Span]  # the question's candidate names
    names: QuestionNames  # what they name
    bm25: Bm25Hits | None  # the fusion's BM25 at that version (methods that fuse)


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
    def seed(self, hits: LayerHits, stats: seed_math.SeedStatistics, named: list[str],
             titled: list[str]) -> tuple[dict[str, float], list[seed_math.FactHit]]:
        """Restart weights by node id, and the facts that seeded them; `named`: the entities the
        question names, `titled`: the passages whose title it names (empty unless the method uses them)."""

    names_entities: bool = False  # True: the question's names seed (retrieval/question_entities.py)
    fuses: bool = False  # True: fuse the PageRank ranking with BM25 (retrieval/fusion.py)

    def names(self, question: str, version: int) -> tuple[list[str], list[str]]:
        """Ids of the entities the question names (longest names first) and of the passages whose title
        it names, for the switches of the seed configuration that are on (one read, at `version`)."""
        spans = self._spans(question)
        return self._named(spans, self._read(spans)[1], version)

    def _spans(self, question: str) -> list[Span]:
        config = self.seed_config
        if not self.names_entities or (config.named_entity_weight <= 0 and config.title_weight <= 0):
            return []
        return candidate_spans(question)

    def _read(self, spans: list[Span]) -> tuple[MemoryState, QuestionNames]:
        """The memory state and what the question's candidate names name, in one read."""
        config = self.seed_config
        keys = sorted({s.key for s in spans})
        titles = sorted({bounded_key(k) for k in keys})  # as title keys are stored (memory/title_keys.py)
        return self.context.search.state_and_names(self.context.projections.prefix,
                                                   keys if config.named_entity_weight > 0 else [],
                                                   titles if config.title_weight > 0 else [])

    def _named(self, spans: list[Span], found: QuestionNames, version: int) -> tuple[list[str], list[str]]:
        entities = [e for key in longest_matches(spans, found.entities) for e in found.entities[key]]
        titled: list[str] = []
        if self.seed_config.title_weight > 0 and spans:
            titled = (titled_passages(spans, found.titles) if found.keyed
                      else self.context.titles.passages(spans, version))
        return entities, titled

    def read_ahead(self, question: str) -> Ahead:
        """What the search needs besides the query vector, read while the question is embedded (on the
        context's reader thread): the state, the names, the space's sizes and the fusion's BM25."""
        ctx, spans = self.context, self._spans(question)
        state, found = self._read(spans)
        ctx.prepare_ahead(state.version)
        ctx.counts(state.version)  # read once per memory version: here rather than after the embedding
        bm25 = self.bm25(question, state.version) if self.fuses else None
        return Ahead(state, spans, found, bm25)

    def requests(self) -> list[LayerRequest]:
        config = self.context.config
        wanted = [LayerRequest("facts", self.seed_config.top_k_facts or FACTS_READ, 0, self.fact_states),
                  LayerRequest("schemas", self.schema_count, 0, self.schema_states),
                  LayerRequest("passages", config.top_n_passages, 0)]
        return [r for r in wanted if r.k > 0]

    def search(self, question: str, top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        config = self.context.config
        # the server engines leave no matrix product to this process: no BLAS limit to set (finding the
        # BLAS libraries cost a one-shot `query` ~12 ms)
        served = config.layer_search == "index" and config.ppr_engine == "gds"
        with nullcontext() if served else one_blas_thread():
            for attempt in range(1, VANISHED_ATTEMPTS + 1):
                try:
                    return self._search(question, top_k, top_m)
                except Exception as error:  # noqa: BLE001 - GDS names a vanished graph only in its message
                    if not projection_vanished(error) or attempt == VANISHED_ATTEMPTS:
                        raise
                    # another process wrote to the memory and dropped the projection of the version this
                    # search had read: search again at the new version
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _search(self, question: str, top_k: int, top_m: int) -> RetrievalResult:
        ctx, timer = self.context, StageTimer()
        pending = ctx.ahead(self.read_ahead, question)
        vector = ctx.embed(question)
        timer.lap("embed")
        ahead = pending.result()
        bm25 = ahead.bm25
        timer.lap("reads")  # what the reads took beyond the embedding
        # in process, the layers are searched at the version read ahead; the indexes read their own
        state, hits = ctx.layers.search(vector, self.requests(), ahead.state)
        dense = passage_hits(hits.passages)
        timer.lap("vector")
        named, titled = self._named(ahead.spans, ahead.names, state.version)
        entity_ids = sorted({i for f in hits.facts for i in (f.head_id, f.tail_id)}.union(named))
        type_ids = sorted({t for s in hits.schemas for t in (s.head_type, s.tail_type)})
        stats = ctx.statistics.lookup(state.version, entity_ids, type_ids, [p.id for p in hits.passages])
        weights, used_facts = self.seed(hits, stats, named, titled)
        timer.lap("seeding")
        entities, types = set(entity_ids), set(type_ids)
        seeds = Seeds(
            entity=[[k, w] for k, w in weights.items() if k in entities],
            # without entity-type edges the Type nodes are not in the projection: they cannot seed
            type=[[k, w] for k, w in weights.items() if k in types] if ctx.config.type_weight > 0 else [],
            passage=[[k, w] for k, w in weights.items() if k not in entities and k not in types])
        if not seeds.entity and not seeds.type and not titled:  # nothing from the memory: dense retrieval
            return ctx.finish(RetrievalResult(method=self.method, passages=dense[:top_k], fallback=True), timer,
                              known=dense, version=state.version)
        # the local engine keeps its own copy of the graph (ppr/graph_copy.py): no GDS projection to build
        graph = (ctx.projections.ensure(state) if getattr(ctx.engine, "needs_projection", True)
                 else ctx.projections.name(state.version))
        ctx.engine.prepare(graph, state.version)  # the local engine catches its copy up, the others pass
        timer.lap("projection")
        # the fusion divides by every passage's PageRank: the gds engine then sums every passage
        ranked = ctx.engine.rank(graph, seeds, max(top_k, FUSION_DEPTH) if self.fuses else top_k, top_m,
                                 mass=self.fuses)
        timer.lap("ppr")
        passages = ranked.get("passage", [])
        if self.fuses:
            passages = self.fused(bm25, dense, ranked)
            timer.lap("fusion")
        fact_text = {f.id: f.text for f in hits.facts}
        return ctx.finish(RetrievalResult(
            method=self.method,
            passages=passages[:top_k],
            entities=ranked.get("entity", []),
            facts=[Hit(id=f.fact_id, score=f.score, text=fact_text.get(f.fact_id)) for f in used_facts],
            schemas=[Hit(id=s.id, score=s.score, text=s.text) for s in hits.schemas
                     if s.score > self.seed_config.schema_threshold],
        ), timer, known=dense, version=state.version)


    def bm25(self, question: str, version: int | None) -> Bm25Hits:
        """The fusion's BM25 (of the question without the words `fusion_stop_words` drops), with the
        space's own statistics whatever the layer search (a one-shot query builds the index too), so
        other spaces change nothing; through the shared Lucene index (its IDF counts every space) only
        for spaces of more than bm25_index.MAX_IN_PROCESS_PASSAGES passages."""
        ctx = self.context
        terms = {"function": without_function_words, "nltk": without_stop_words}.get(
            ctx.config.fusion_stop_words, str)(question)
        return ctx.bm25.top(terms, FUSION_DEPTH, version=version, total=True)

    def fused(self, bm25: Bm25Hits, dense: list[Hit], ranked: Ranking) -> list[Hit]:
        """PageRank and BM25 passages by the sum of their shares (retrieval/fusion.py)."""
        ctx = self.context
        walk = ranked.get("passage", [])
        known = {h.id: h for h in dense} | {h.id: h for h in walk}
        for m in bm25.passages:
            known.setdefault(m.id, Hit(id=m.id, name=m.title, score=m.score, text=m.text))
        routes = [Route({h.id: h.score for h in walk}, ranked.passage_mass),
                  Route({m.id: m.score for m in bm25.passages}, bm25.total)]
        fused = fuse(routes, ctx.config.fusion_confidence_top)
        return [known[p].model_copy(update={"score": score}) for p, score in fused]


def projection_vanished(error: Exception) -> bool:
    """GDS's answer when a projection was dropped between the memory-state read and its use."""
    text = error_text(error)
    return "Graph with name" in text and "does not exist" in text


def seed_hits(hits: LayerHits) -> tuple[list[seed_math.FactHit], list[seed_math.SchemaHit],
                                        list[seed_math.PassageHit]]:
    """The layer hits as the seed formulas take them."""
    return ([seed_math.FactHit(f.id, f.score, f.head_id, f.tail_id) for f in hits.facts],
            [seed_math.SchemaHit(s.id, s.score, s.head_type, s.tail_type) for s in hits.schemas],
            [seed_math.PassageHit(p.id, p.score) for p in hits.passages])
