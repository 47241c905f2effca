"""Personalised-PageRank seed weights from retrieval hits (MemGraphRAG eq. 6-8, HippoRAG 2).

Pure functions, no I/O: the caller fetches the hits and the corpus statistics (passage counts per
entity, entities per type, entities per passage) and gets back weights keyed by node id.

- eq. 6  `entity_seeds_mean`      entity = mean similarity of the retrieved facts that contain it
- HippoRAG 2 `entity_seeds_hipporag` min-max fact score / #passages of the entity, mean over facts
- eq. 7  `type_seeds`             type = mean schema relevance x 1/log(deg(t)+1)   (hub suppression)
- eq. 8  `passage_seeds`          passage = sim x alpha x sigmoid(sum IDF / log(|E_p|+1))  (density)

`memgraphrag_seeds` and `hipporag2_seeds` assemble one normalised distribution. Entity, type and
passage ids are assumed to be distinct strings, so the per-kind maps are simply merged.

Calibration (shared/notes/retrieval-calibration.md, MuSiQue): the HippoRAG-2 entity weighting beat
eq. 6 by 3.6 pts R@5, the schema filter cost 8-10 pts on encyclopaedic text, and hub suppression /
density changed no top-5 result at alpha = 0.05. Hence `SeedConfig()` (config/__init__.py) defaults to the
measured best and `SeedConfig.paper()` gives the paper-faithful configuration.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from memgraph_neo4j.config import SeedConfig

# --- inputs ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FactHit:
    fact_id: str
    score: float  # cosine similarity of query and fact
    head_id: str
    tail_id: str


@dataclass(frozen=True, slots=True)
class SchemaHit:
    schema_id: str
    score: float  # relevance (cosine similarity) of query and schema
    head_type: str
    tail_type: str


@dataclass(frozen=True, slots=True)
class PassageHit:
    passage_id: str
    score: float  # cosine similarity of query and passage


# --- helpers -----------------------------------------------------------------------------------


def _min_max(scores: Sequence[float]) -> list[float]:
    """Min-max to [0, 1]; all equal -> all 1.0 (HippoRAG's `min_max_normalize`)."""
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [1.0] * len(scores)
    return [(s - lo) / (hi - lo) for s in scores]


def _entities(hit: FactHit) -> tuple[str, ...]:
    # A self-loop fact (head == tail) contains its entity once: each fact counts once per entity.
    return (hit.head_id,) if hit.head_id == hit.tail_id else (hit.head_id, hit.tail_id)


def _mean(sums: Mapping[str, float], counts: Mapping[str, int]) -> dict[str, float]:
    return {key: sums[key] / counts[key] for key in sums}


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


# --- eq. 6 and HippoRAG 2: entities ------------------------------------------------------------


def entity_seeds_mean(fact_hits: Iterable[FactHit]) -> dict[str, float]:
    """Eq. 6: an entity's weight is the mean similarity of the retrieved facts containing it."""
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for hit in fact_hits:
        for entity in _entities(hit):
            sums[entity] += hit.score
            counts[entity] += 1
    return _mean(sums, counts)


def entity_seeds_hipporag(
    fact_hits: Iterable[FactHit], entity_passage_count: Mapping[str, int]
) -> dict[str, float]:
    """HippoRAG-2 weighting: (min-max fact score) / (#passages mentioning the entity), mean over facts.

    Dividing by the passage count damps entities that occur everywhere (the PPR analogue of IDF).
    An entity with no (or an unknown) passage count is not divided. Min-max runs over the given
    hits, so the weakest retrieved fact contributes 0.

    Differences from the authors' code (kept on purpose, as specified): their fact scores are
    min-max normalised over *all* facts in the store, and an entity in several facts keeps the
    value from the last one visited instead of the mean.
    """
    hits = list(fact_hits)
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for hit, norm in zip(hits, _min_max([h.score for h in hits]), strict=True):
        for entity in _entities(hit):
            n_passages = entity_passage_count.get(entity, 0)
            sums[entity] += norm / n_passages if n_passages > 0 else norm
            counts[entity] += 1
    return _mean(sums, counts)


def named_entity_seeds(entity_ids: Iterable[str], entity_passage_count: Mapping[str, int],
                       weight: float = 1.0) -> dict[str, float]:
    """Entities the question names: weight / #passages, i.e. what the HippoRAG weighting gives the
    entity of a fact that matched perfectly (min-max 1). An entity without passages is not divided."""
    return {e: weight / max(entity_passage_count.get(e, 0), 1) for e in entity_ids}


def titled_passage_seeds(passage_ids: Iterable[str], weight: float = 1.0) -> dict[str, float]:
    """Passages whose title the question names: a title names one passage, so weight / 1."""
    return dict.fromkeys(passage_ids, weight)


# --- eq. 7: types ------------------------------------------------------------------------------


def type_seeds(
    schema_hits: Iterable[SchemaHit], type_degree: Mapping[str, int], hub_suppression: bool = True
) -> dict[str, float]:
    """Eq. 7: mean relevance of the retrieved schemas a type appears in x 1/log(deg(t) + 1).

    deg(t) = number of entities of type t. The factor keeps generic hub types ("Entity", "Person")
    from swallowing the walk. deg is floored at 1 so an empty / unknown type gets 1/log 2 rather
    than a division by log 1 = 0. Without hub suppression the factor is 1.
    """
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for hit in schema_hits:
        # (T, r, T) counts once for T, like a self-loop fact.
        for type_id in {hit.head_type, hit.tail_type}:
            sums[type_id] += hit.score
            counts[type_id] += 1
    weights = _mean(sums, counts)
    if hub_suppression:
        for type_id in weights:
            weights[type_id] /= math.log(max(type_degree.get(type_id, 0), 1) + 1)
    return weights


# --- eq. 8: passages ---------------------------------------------------------------------------


def idf(passage_entities: Mapping[str, Collection[str]]) -> dict[str, float]:
    """IDF over passages: log(N / df(e)), N = number of passages, df = passages mentioning e."""
    n_passages = len(passage_entities)
    df: dict[str, int] = defaultdict(int)
    for entities in passage_entities.values():
        for entity in set(entities):  # a passage counts once per entity
            df[entity] += 1
    return {entity: math.log(n_passages / count) for entity, count in df.items()}


def passage_density(entities: Collection[str], idf_map: Mapping[str, float]) -> float:
    """sigma(sum IDF(e) / log(|E_p| + 1)) over the passage's distinct entities.

    A passage with no entities gets sigma(0) = 0.5: the formula is 0/0 there, and 0.5 is the value a
    passage whose entities all have IDF 0 (occur everywhere) gets, i.e. "no rarity evidence" and the
    floor of the term for passages with entities (IDF >= 0 so the term is >= 0.5).
    Raises KeyError for an entity missing from idf_map: mismatched inputs, not a zero.
    """
    distinct = set(entities)
    if not distinct:
        return 0.5
    missing = distinct.difference(idf_map)
    if missing:
        raise KeyError(f"entities without an IDF value: {sorted(missing)}")
    return _sigmoid(sum(idf_map[e] for e in distinct) / math.log(len(distinct) + 1))


def passage_seeds(
    passage_hits: Iterable[PassageHit],
    passage_entities: Mapping[str, Collection[str]],
    idf_map: Mapping[str, float],
    alpha: float = 0.05,
    density: bool = True,
    normalise_scores: bool = False,
) -> dict[str, float]:
    """Eq. 8: sim x alpha x sigma(sum_{e in E_p} IDF(e) / log(|E_p| + 1)).

    alpha keeps passages a weak prior next to the memory seeds. density=False drops the sigma term
    (sim x alpha); normalise_scores=True min-max normalises the sims over the given hits first
    (HippoRAG 2: alpha x min-max dense score). A passage absent from passage_entities has no entities.
    """
    hits = list(passage_hits)
    sims = [h.score for h in hits]
    if normalise_scores:
        sims = _min_max(sims)
    weights: dict[str, float] = {}
    for hit, sim in zip(hits, sims, strict=True):
        term = passage_density(passage_entities.get(hit.passage_id, ()), idf_map) if density else 1.0
        weights[hit.passage_id] = sim * alpha * term
    return weights


# --- combining ---------------------------------------------------------------------------------


def combine(*weight_maps: Mapping[str, float]) -> dict[str, float]:
    """Sum per node id (the maps use distinct id namespaces, so this is a merge)."""
    total: dict[str, float] = defaultdict(float)
    for weights in weight_maps:
        for node, w in weights.items():
            total[node] += w
    return dict(total)


def to_distribution(weights: Mapping[str, float]) -> dict[str, float]:
    """Drop non-positive weights and divide by the total; nothing positive -> {}.

    NaN / inf raise ValueError naming the node: they would silently poison the PageRank restart
    vector (GDS and igraph treat them differently), so fail loudly instead.
    """
    for node, w in weights.items():
        if not math.isfinite(w):
            raise ValueError(f"seed weight for node {node!r} is not finite: {w}")
    positive = {node: w for node, w in weights.items() if w > 0}
    total = sum(positive.values())
    return {node: w / total for node, w in positive.items()} if total > 0 else {}


def select_facts(fact_hits: Iterable[FactHit], threshold: float, top_k: int | None) -> list[FactHit]:
    """Facts with score > threshold, strongest first, at most top_k (None = all)."""
    kept = sorted((h for h in fact_hits if h.score > threshold), key=lambda h: h.score, reverse=True)
    return kept if top_k is None else kept[:top_k]


@dataclass
class SeedStatistics:
    """What the formulas need besides the hits (read from the memory, see retrieval/statistics)."""

    passages: int = 0  # passages in the space (the N of IDF)
    entity_passages: dict[str, int] = field(default_factory=dict)  # passages mentioning each entity
    type_degree: dict[str, int] = field(default_factory=dict)  # entities of each type
    passage_entities: dict[str, list[str]] = field(default_factory=dict)  # entities of each hit passage
    idf: dict[str, float] = field(default_factory=dict)  # log(N / df) of those entities


def memgraphrag_weights(fact_hits: Iterable[FactHit], schema_hits: Iterable[SchemaHit],
                        passage_hits: Iterable[PassageHit], stats: SeedStatistics,
                        config: SeedConfig, named: Iterable[str] = (),
                        titled: Iterable[str] = ()) -> dict[str, float]:
    """Unnormalised MemGraphRAG seed weights (entities + types + passages, plus the entities the
    question names, `named`, and the passages whose title it names, `titled`, when their weights in
    config are > 0); see memgraphrag_seeds."""
    facts = select_facts(fact_hits, config.fact_threshold, config.top_k_facts)
    if config.entity_weighting == "mean":
        entities = entity_seeds_mean(facts)
    else:
        entities = entity_seeds_hipporag(facts, stats.entity_passages)
    schemas = [h for h in schema_hits if h.score > config.schema_threshold]
    types = type_seeds(schemas, stats.type_degree, hub_suppression=config.hub_suppression)
    passages = passage_seeds(passage_hits, stats.passage_entities, stats.idf, alpha=config.alpha,
                             density=config.density, normalise_scores=config.normalise_passage_scores)
    named_seeds = (named_entity_seeds(named, stats.entity_passages, config.named_entity_weight)
                   if config.named_entity_weight > 0 else {})
    titled_seeds = titled_passage_seeds(titled, config.title_weight) if config.title_weight > 0 else {}
    return combine(entities, named_seeds, types, passages, titled_seeds)


def memgraphrag_seeds(fact_hits: Iterable[FactHit], schema_hits: Iterable[SchemaHit],
                      passage_hits: Iterable[PassageHit], stats: SeedStatistics,
                      config: SeedConfig, named: Iterable[str] = (), titled: Iterable[str] = ()) -> dict[str, float]:
    """One restart distribution over entity, type and passage ids (eq. 6-8 with the thresholds).

    Facts: score > fact_threshold, then the top_k_facts strongest. Schemas: score > schema_threshold.
    Returns {} when nothing is positive; the caller should then fall back to dense ranking.
    """
    return to_distribution(memgraphrag_weights(fact_hits, schema_hits, passage_hits, stats, config, named, titled))


def hipporag2_seeds(
    fact_hits: Iterable[FactHit],
    passage_hits: Iterable[PassageHit],
    *,
    entity_passage_count: Mapping[str, int],
    alpha: float = 0.05,
    top_k_facts: int = 5,
) -> dict[str, float]:
    """HippoRAG 2 seeding: top-k facts -> entities (HippoRAG weighting) + alpha x min-max dense score.

    No similarity threshold (HippoRAG 2 filters facts with an LLM instead) and no type seeds.
    """
    facts = select_facts(fact_hits, -math.inf, top_k_facts)
    entities = entity_seeds_hipporag(facts, entity_passage_count)
    passages = passage_seeds(passage_hits, {}, {}, alpha=alpha, density=False, normalise_scores=True)
    return to_distribution(combine(entities, passages))
