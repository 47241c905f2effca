"""System-1 hybrid search: similarity and BM25 over episodes/passages, entities and facts, fused with
Reciprocal Rank Fusion (k = 60), optionally expanded along the graph.

Per query, six ranked lists of `candidates` hits each:

- passages (episodes are passages): cosine top-k from the Passage vector index, and BM25 (the
  space's own Lucene-formula index in process, or the shared Lucene fulltext index for large spaces,
  as `bm25` does);
- entities: the Entity vector index, and the `entity_name_search` fulltext index;
- facts in the usable states (active; no verdict) that are valid at `as_of` (default: now, i.e. not
  invalidated by a later message): the Fact vector index, and the `fact_text_search` fulltext index.

Entities and facts are fused list by list. Episodes are fused from the two passage lists plus, with
`fact_leg`, the episodes that evidence the fused facts in fact order: a fact that matches the question
("Caroline attended LGBTQ support group") points at the message that said it even when the message's
own words differ. The budget is k episodes, 2k entities and 2k facts (Mnemis: 10 / 20 / 20).

Expansion (`expand`), from the fused hits:

- "facts": 1-3 hops along valid facts from the fused entities and the ends of the fused facts; the
  episodes evidencing the facts reached form one more list (nearer hops and better seeds first);
- "ppr": personalised PageRank on the space's projection (retrieval/projection.py), restarting at
  the fused episodes and entities with their fused scores; its passage ranking is one more list.

The expansion list enters the episode fusion with weight `expansion_weight`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memgraph_neo4j.contracts import fact_states
from memgraph_neo4j.repository.conversation import ConversationRepository
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer
from memgraph_neo4j.retrieval.bm25 import BM25Retriever, bm25_query
from memgraph_neo4j.retrieval.context import RetrievalContext
from memgraph_neo4j.retrieval.dense import FETCH_PER_RESULT
from memgraph_neo4j.retrieval.ppr import Seeds
from memgraph_neo4j.retrieval.rrf import RRF_K, rrf
from memgraph_neo4j.retrieval.stopwords import without_stop_words

EXPANSIONS = (None, "facts", "ppr", "context")


@dataclass(frozen=True)
class HybridConfig:
    rrf_k: int = RRF_K
    candidates: int = 100  # hits per ranked list before fusion
    stop_words: bool = True  # English stop words dropped from the question for the fulltext legs
    fact_leg: bool = True  # episodes evidencing the fused facts: a third episode list
    # weight of that list in the fusion: facts of the offline extractor are few and noisy on chat
    # (LoCoMo: weight 1 cost 0.05 R@5 on the first conversation, 0.3 is neutral)
    fact_weight: float = 0.3
    evidence_per_fact: int = 3  # episodes taken per fact (earliest first)
    expand: str | None = None  # None | "facts" | "ppr" | "context"
    hops: int = 1  # "facts" expansion: 1-3
    expansion_weight: float = 1.0  # weight of the expansion list in the episode fusion
    seeds: int = 20  # fused entities and facts that seed the expansion ("facts", "ppr")
    # fused episodes whose neighbours the "context" expansion adds; chosen on LoCoMo conversations 26 and
    # 30 only (R@10 5: 0.624, 10: 0.607, 20: 0.577 averaged over the two, weight 1)
    context_seeds: int = 5

    def __post_init__(self) -> None:
        if self.expand not in EXPANSIONS:
            raise ValueError(f"expand must be one of {EXPANSIONS}, not {self.expand!r}")
        if not 1 <= self.hops <= 3:
            raise ValueError(f"hops must be 1-3, not {self.hops}")
        if self.candidates < 1:
            raise ValueError(f"candidates must be >= 1, not {self.candidates}")


@dataclass
class System1Lists:
    """The ranked lists of one query (ids, best first), kept for evaluation and fusion."""

    dense: list[str]
    bm25: list[str]
    entities: list[tuple[str, float]]  # fused
    facts: list[tuple[str, float]]  # fused
    fact_episodes: list[str]
    expansion: list[str]


class HybridRetriever:
    """System-1 (see the module docstring); `search(..., as_of=...)` takes the facts valid then."""

    method = "hybrid"
    default_config = HybridConfig()

    def __init__(self, context: RetrievalContext, config: HybridConfig | None = None) -> None:
        self.context = context
        self.config = config or self.default_config
        self.repository = ConversationRepository(context.search.store, context.space)
        self.bm25 = BM25Retriever(context)
        self.states = fact_states(True, context.config.adjudication)
        self._texts: dict[str, str] = {}

    # ----- the lists -----------------------------------------------------------------------------
    def lists(self, question: str, timer: StageTimer, as_of: datetime | None = None) -> System1Lists:
        ctx, n, repo = self.context, self.config.candidates, self.repository
        vector = ctx.embed(question)
        timer.lap("embed")
        dense = ctx.search.dense(vector, n, n * FETCH_PER_RESULT)
        timer.lap("dense")
        terms = without_stop_words(question) if self.config.stop_words else question
        bm25 = self.bm25.passages(terms, n, timer)
        query = bm25_query(terms)
        entity_lists = [repo.entity_vector(vector, n, n * 3), repo.entity_fulltext(query, n, n * 3)]
        fact_lists = [repo.fact_vector(vector, n, n * 6, self.states, as_of),
                      repo.fact_fulltext(query, n, n * 6, self.states, as_of)]
        timer.lap("entities_facts")
        self._texts = {h.id: h.text for h in [*dense, *bm25] if h.text is not None}
        self._texts.update({r.id: r.text for lst in [*entity_lists, *fact_lists] for r in lst if r.text})
        entities = rrf([[r.id for r in lst] for lst in entity_lists], self.config.rrf_k)
        facts = rrf([[r.id for r in lst] for lst in fact_lists], self.config.rrf_k)
        fact_episodes: list[str] = []
        if self.config.fact_leg and facts:
            evidence = repo.fact_passages([f for f, _ in facts[:n]], self.config.evidence_per_fact)
            fact_episodes = list(dict.fromkeys(p for f, _ in facts[:n] for p in evidence.get(f, [])))
        timer.lap("fuse")
        lists = System1Lists([m.id for m in dense], [m.id for m in bm25], entities, facts, fact_episodes, [])
        if self.config.expand == "facts":
            lists.expansion = self._expand_facts(lists, as_of)
        elif self.config.expand == "ppr":
            lists.expansion = self._expand_ppr(lists)
        elif self.config.expand == "context":
            lists.expansion = self._expand_context(lists)
        timer.lap("expand")
        return lists

    def episode_ranking(self, lists: System1Lists) -> list[tuple[str, float]]:
        rankings, weights = [lists.dense, lists.bm25], [1.0, 1.0]
        if self.config.fact_leg:
            rankings.append(lists.fact_episodes)
            weights.append(self.config.fact_weight)
        if self.config.expand:
            rankings.append(lists.expansion)
            weights.append(self.config.expansion_weight)
        return rrf(rankings, self.config.rrf_k, weights)

    # ----- expansion -----------------------------------------------------------------------------
    def _seed_entities(self, lists: System1Lists) -> list[str]:
        seeds = [e for e, _ in lists.entities[:self.config.seeds]]
        ends = self.repository.fact_entities([f for f, _ in lists.facts[:self.config.seeds]])
        for fact, _ in lists.facts[:self.config.seeds]:
            seeds.extend(ends.get(fact, ()))
        return list(dict.fromkeys(seeds))

    def _expand_facts(self, lists: System1Lists, as_of: datetime | None) -> list[str]:
        seen_entities = set(self._seed_entities(lists))
        frontier = sorted(seen_entities, key=list(seen_entities).index)
        order = {e: i for i, e in enumerate(frontier)}
        seen_facts = {f for f, _ in lists.facts}
        reached: list[tuple[int, int, str]] = []  # (hop, seed rank, fact)
        for hop in range(1, self.config.hops + 1):
            if not frontier:
                break
            nxt = []
            for source, fact, target in self.repository.fact_hop(frontier, self.states, as_of):
                if fact not in seen_facts:
                    seen_facts.add(fact)
                    reached.append((hop, order.get(source, len(order)), fact))
                if target not in seen_entities:
                    seen_entities.add(target)
                    order[target] = order.get(source, len(order))
                    nxt.append(target)
            frontier = nxt
        reached.sort()
        facts = [f for _, _, f in reached[:self.config.candidates * 4]]
        evidence = self.repository.fact_passages(facts, self.config.evidence_per_fact)
        return list(dict.fromkeys(p for f in facts for p in evidence.get(f, [])))

    def _expand_context(self, lists: System1Lists) -> list[str]:
        """The messages before and after the best fused episodes, in their order: an answer often sits
        next to the message the question matches (the question that prompted it, or its follow-up)."""
        fused = [p for p, _ in self.episode_ranking(System1Lists(lists.dense, lists.bm25, [], [],
                                                                 lists.fact_episodes, []))]
        top = fused[:self.config.context_seeds]
        around = self.repository.neighbours(top)
        found = [n for p in top for n in around.get(p, (None, None)) if n is not None]
        return list(dict.fromkeys(found))

    def _expand_ppr(self, lists: System1Lists) -> list[str]:
        seeds = self.config.seeds
        fused = self.episode_ranking(System1Lists(lists.dense, lists.bm25, [], [], lists.fact_episodes, []))
        passage = [[p, s] for p, s in fused[:seeds]]
        entity = [[e, s] for e, s in lists.entities[:seeds]]
        if not entity:
            return []
        ctx = self.context
        graph, version = ctx.search_graph()
        ctx.engine.prepare(graph, version)
        ranked = ctx.engine.rank(graph, Seeds(entity=entity, passage=passage), self.config.candidates, 0)
        return [h.id for h in ranked.get("passage", [])]

    # ----- the Retriever interface ---------------------------------------------------------------
    def said_by(self, ranking: list[tuple[str, float]], as_of: datetime | None) -> list[tuple[str, float]]:
        """Without the episodes said after `as_of` (passages without a time stay)."""
        if as_of is None:
            return ranking
        details = self.repository.episode_details([p for p, _ in ranking])
        return [(p, s) for p, s in ranking if p not in details or details[p]["time"] is None
                or details[p]["time"] <= as_of]

    def search(self, question: str, top_k: int = 10, top_m: int = 10, as_of: datetime | None = None) -> RetrievalResult:
        """The top_k episodes, 2·top_k entities and 2·top_k facts (top_m is not used: the budget is
        set by top_k). `as_of`: facts valid then, and only episodes said by then."""
        timer = StageTimer()
        lists = self.lists(question, timer, as_of)
        ranking = self.said_by(self.episode_ranking(lists), as_of)
        passages = [Hit(id=p, score=s, text=self._texts.get(p)) for p, s in ranking[:top_k]]
        result = RetrievalResult(
            method=self.method, passages=passages,
            entities=[Hit(id=e, score=s, name=self._texts.get(e)) for e, s in lists.entities[:2 * top_k]],
            facts=[Hit(id=f, score=s, text=self._texts.get(f)) for f, s in lists.facts[:2 * top_k]])
        return self.context.finish(result, timer)


class HybridExpandedRetriever(HybridRetriever):
    """System-1 with one hop of expansion along valid facts."""

    method = "hybrid-expand"
    default_config = HybridConfig(expand="facts", hops=1)


class HybridContextRetriever(HybridRetriever):
    """System-1 with the neighbouring messages of the best episodes."""

    method = "hybrid-context"
    default_config = HybridConfig(expand="context")


class HybridPprRetriever(HybridRetriever):
    """System-1 with a personalised PageRank from the fused hits."""

    method = "hybrid-ppr"
    default_config = HybridConfig(expand="ppr")
