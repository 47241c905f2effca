"""Seed weights (retrieval/seeds.py) against hand-computed values. ln = natural log throughout."""

from __future__ import annotations

import dataclasses
import math

import pytest

from memgraph_neo4j.config import SeedConfig
from memgraph_neo4j.retrieval.seeds import (
    FactHit,
    PassageHit,
    SchemaHit,
    SeedStatistics,
    combine,
    entity_seeds_hipporag,
    entity_seeds_mean,
    hipporag2_seeds,
    idf,
    memgraphrag_seeds,
    memgraphrag_weights,
    passage_seeds,
    select_facts,
    to_distribution,
    type_seeds,
)

approx = pytest.approx


# --- eq. 6 -------------------------------------------------------------------------------------


def test_entity_mean_eq6():
    hits = [FactHit("f1", 0.9, "A", "B"), FactHit("f2", 0.7, "B", "C")]
    # A in f1 -> 0.9; B in f1, f2 -> (0.9 + 0.7) / 2 = 0.8; C in f2 -> 0.7
    assert entity_seeds_mean(hits) == approx({"A": 0.9, "B": 0.8, "C": 0.7})


def test_entity_mean_self_loop_counts_fact_once():
    hits = [FactHit("f1", 0.5, "D", "D"), FactHit("f2", 0.9, "D", "E")]
    # D: facts f1, f2 -> (0.5 + 0.9) / 2 = 0.7   (not (0.5 + 0.5 + 0.9) / 3)
    assert entity_seeds_mean(hits) == approx({"D": 0.7, "E": 0.9})


# --- HippoRAG 2 weighting ----------------------------------------------------------------------


def test_entity_hipporag_normalisation():
    hits = [FactHit("f1", 0.9, "A", "B"), FactHit("f2", 0.7, "B", "C"), FactHit("f3", 0.5, "C", "D")]
    counts = {"A": 2, "B": 1, "C": 4, "D": 0}
    # min-max over the hits: lo 0.5, hi 0.9 -> f1 = 1.0, f2 = (0.7-0.5)/0.4 = 0.5, f3 = 0.0
    # A: f1 1.0/2 = 0.5                       -> mean 0.5
    # B: f1 1.0/1 = 1.0, f2 0.5/1 = 0.5       -> mean 0.75
    # C: f2 0.5/4 = 0.125, f3 0.0/4 = 0.0     -> mean 0.0625
    # D: f3 0.0, count 0 -> not divided       -> 0.0
    assert entity_seeds_hipporag(hits, counts) == approx({"A": 0.5, "B": 0.75, "C": 0.0625, "D": 0.0})


def test_entity_hipporag_equal_scores_and_unknown_count():
    hits = [FactHit("f1", 0.8, "A", "B"), FactHit("f2", 0.8, "A", "C")]
    # all equal -> both normalise to 1.0; A has 2 passages: (1/2 + 1/2)/2 = 0.5;
    # B, C have no count (missing / 0) -> not divided: 1.0
    assert entity_seeds_hipporag(hits, {"A": 2, "C": 0}) == approx({"A": 0.5, "B": 1.0, "C": 1.0})
    assert entity_seeds_hipporag([], {}) == {}


# --- eq. 7 -------------------------------------------------------------------------------------


def test_hub_suppression_puts_generic_type_below_specific():
    hits = [SchemaHit("s1", 0.8, "Entity", "Drug")]  # equal relevance 0.8 for both types
    degree = {"Entity": 1000, "Drug": 3}
    w = type_seeds(hits, degree)
    # Entity: 0.8 / ln(1001) = 0.8 / 6.90875 = 0.115795;  Drug: 0.8 / ln(4) = 0.8 / 1.386294 = 0.577078
    assert w == approx({"Entity": 0.115795, "Drug": 0.577078}, rel=1e-5)
    assert w["Entity"] < w["Drug"]
    # without hub suppression the factor is 1: both keep the schema relevance
    assert type_seeds(hits, degree, hub_suppression=False) == approx({"Entity": 0.8, "Drug": 0.8})


def test_type_mean_over_schemas_and_degree_guard():
    hits = [SchemaHit("s1", 0.8, "Person", "City"), SchemaHit("s2", 0.6, "Person", "Person")]
    # Person in s1, s2 (s2 once) -> mean (0.8 + 0.6)/2 = 0.7, deg 10 -> 0.7 / ln(11) = 0.7 / 2.397895 = 0.291923
    # City: 0.8, deg 0 -> floored to 1 -> 0.8 / ln(2) = 0.8 / 0.693147 = 1.154156
    w = type_seeds(hits, {"Person": 10, "City": 0})
    assert w == approx({"Person": 0.291923, "City": 1.154156}, rel=1e-5)


# --- eq. 8 -------------------------------------------------------------------------------------


CORPUS = {"p1": ["r1", "r2"], "p2": ["c1", "c2"], "p3": ["c1", "c2"], "p4": ["c1", "c2", "c1"]}


def test_idf():
    # N = 4; df(r1) = df(r2) = 1 -> ln 4 = 1.386294; df(c1) = df(c2) = 3 (p4's repeat counts once) -> ln(4/3) = 0.287682
    assert idf(CORPUS) == approx({"r1": 1.386294, "r2": 1.386294, "c1": 0.287682, "c2": 0.287682}, rel=1e-5)
    assert idf({}) == {}


def test_density_ranks_rare_entities_above_common_ones():
    hits = [PassageHit("p1", 0.8), PassageHit("p2", 0.8)]  # equal similarity
    w = passage_seeds(hits, CORPUS, idf(CORPUS))
    # p1 (rare): x = (1.386294 + 1.386294) / ln 3 = 2.772589 / 1.098612 = 2.523719; sigma(x) = 0.925788
    #            0.8 * 0.05 * 0.925788 = 0.037032
    # p2 (common): x = (0.287682 * 2) / 1.098612 = 0.523719; sigma(x) = 0.628017 -> 0.8 * 0.05 * 0.628017 = 0.025121
    assert w == approx({"p1": 0.037032, "p2": 0.025121}, rel=1e-4)
    assert w["p1"] > w["p2"]
    # density off: both sim * alpha = 0.8 * 0.05 = 0.04 -> the tie is back
    assert passage_seeds(hits, CORPUS, idf(CORPUS), density=False) == approx({"p1": 0.04, "p2": 0.04})


def test_passage_without_entities_gets_half_density():
    # no entities -> sigma(0) = 0.5: 0.6 * 0.05 * 0.5 = 0.015 (also for a passage missing from the map)
    hits = [PassageHit("p0", 0.6), PassageHit("px", 0.6)]
    assert passage_seeds(hits, {"p0": []}, {}) == approx({"p0": 0.015, "px": 0.015})


def test_passage_entity_without_idf_is_an_error():
    with pytest.raises(KeyError, match="zz"):
        passage_seeds([PassageHit("p1", 0.8)], {"p1": ["zz"]}, {})


def test_passage_minmax_scores():
    hits = [PassageHit("a", 0.9), PassageHit("b", 0.7), PassageHit("c", 0.5)]
    # min-max -> 1.0, 0.5, 0.0; times alpha 0.05 -> 0.05, 0.025, 0.0
    w = passage_seeds(hits, {}, {}, density=False, normalise_scores=True)
    assert w == approx({"a": 0.05, "b": 0.025, "c": 0.0})


# --- combine / distribution --------------------------------------------------------------------


def test_combine_and_distribution():
    assert combine({"a": 1.0}, {"a": 2.0, "b": 1.0}) == {"a": 3.0, "b": 1.0}
    # non-positive dropped; 3 / (3 + 1) = 0.75, 1 / 4 = 0.25
    dist = to_distribution({"a": 3.0, "b": 1.0, "c": 0.0, "d": -1.0})
    assert dist == approx({"a": 0.75, "b": 0.25})
    assert math.fsum(dist.values()) == approx(1.0)
    assert to_distribution({}) == {}
    assert to_distribution({"a": 0.0, "b": -2.0}) == {}


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_distribution_rejects_non_finite(bad):
    with pytest.raises(ValueError, match="'node-7'"):
        to_distribution({"ok": 1.0, "node-7": bad})


# --- thresholds and the full MemGraphRAG seeding -----------------------------------------------


def test_fact_threshold_drops_at_and_below_tau_and_top_k():
    hits = [FactHit("f1", 0.6, "A", "B"), FactHit("f2", 0.59, "C", "D"), FactHit("f3", 0.61, "E", "F")]
    assert [h.fact_id for h in select_facts(hits, 0.6, 5)] == ["f3"]  # 0.6 itself is dropped (<= tau)
    many = [FactHit(f"f{i}", 0.7 + i / 100, f"h{i}", f"t{i}") for i in range(7)]
    assert [h.fact_id for h in select_facts(many, 0.6, 5)] == ["f6", "f5", "f4", "f3", "f2"]  # strongest 5
    assert len(select_facts(many, 0.6, None)) == 7


FACTS = [FactHit("f1", 0.9, "A", "B"), FactHit("f2", 0.7, "B", "C"), FactHit("f3", 0.55, "C", "D")]
SCHEMAS = [SchemaHit("s1", 0.8, "Drug", "Disease"), SchemaHit("s2", 0.4, "Gene", "Drug")]
PASSAGES = [PassageHit("p1", 0.8)]
STATS = SeedStatistics(
    passages=10,
    entity_passages={"A": 1, "B": 2, "C": 1, "D": 1},
    type_degree={"Drug": 3, "Disease": 1000, "Gene": 5},
    passage_entities={"p1": []},
    idf={},
)
PAPER = SeedConfig(entity_weighting="mean", schema_threshold=0.5)


def test_memgraphrag_seeds_hand_computed():
    dist = memgraphrag_seeds(FACTS, SCHEMAS, PASSAGES, STATS, PAPER)
    # facts: f3 (0.55 <= 0.6) dropped -> entities (eq. 6): A 0.9, B (0.9+0.7)/2 = 0.8, C 0.7; D absent
    # schemas: s2 (0.4 <= 0.5) dropped -> Drug 0.8/ln 4 = 0.577078, Disease 0.8/ln 1001 = 0.115795; Gene absent
    # passage p1: no entities -> 0.8 * 0.05 * 0.5 = 0.02
    # total = 0.9 + 0.8 + 0.7 + 0.577078 + 0.115795 + 0.02 = 3.112873
    expected = {"A": 0.289122, "B": 0.256997, "C": 0.224873, "Drug": 0.185384, "Disease": 0.037199,
                "p1": 0.006425}
    assert dist == approx(expected, rel=1e-4)
    assert math.fsum(dist.values()) == approx(1.0)


def test_memgraphrag_nothing_positive_is_empty():
    assert memgraphrag_seeds([], [], [], STATS, PAPER) == {}


def _raw(config: SeedConfig) -> dict[str, float]:
    return memgraphrag_weights(FACTS, SCHEMAS, PASSAGES, STATS, config)


def _split(w: dict[str, float]) -> tuple[dict, dict, dict]:
    entities = {k: v for k, v in w.items() if k in "ABCD"}
    types = {k: v for k, v in w.items() if k in ("Drug", "Disease", "Gene")}
    passages = {k: v for k, v in w.items() if k.startswith("p")}
    return entities, types, passages


@pytest.mark.parametrize(
    ("change", "affected"),
    [
        ({"hub_suppression": False}, "types"),
        ({"schema_threshold": 0.3}, "types"),
        ({"density": False}, "passages"),
        ({"alpha": 0.1}, "passages"),
        ({"normalise_passage_scores": True}, "passages"),
        ({"entity_weighting": "hipporag"}, "entities"),
        ({"fact_threshold": 0.5}, "entities"),
        ({"top_k_facts": 1}, "entities"),
    ],
)
def test_ablation_switch_changes_only_its_part(change, affected):
    base = dict(zip(("entities", "types", "passages"), _split(_raw(PAPER)), strict=True))
    flipped = dict(zip(("entities", "types", "passages"), _split(_raw(dataclasses.replace(PAPER, **change))),
                       strict=True))
    for part in base:
        if part == affected:
            assert flipped[part] != approx(base[part])
        else:
            assert flipped[part] == approx(base[part])


def test_ablation_values():
    _, types, _ = _split(_raw(dataclasses.replace(PAPER, hub_suppression=False)))
    assert types == approx({"Drug": 0.8, "Disease": 0.8})  # factor 1
    _, _, passages = _split(_raw(dataclasses.replace(PAPER, density=False)))
    assert passages == approx({"p1": 0.04})  # 0.8 * 0.05, no sigma(0) = 0.5
    ents, _, _ = _split(_raw(dataclasses.replace(PAPER, entity_weighting="hipporag")))
    # kept f1 0.9, f2 0.7 -> min-max 1.0, 0.0; A 1.0/1 = 1.0; B (1.0/2 + 0.0/2)/2 = 0.25; C 0.0/1 = 0.0
    assert ents == approx({"A": 1.0, "B": 0.25, "C": 0.0})
    ents, _, _ = _split(_raw(dataclasses.replace(PAPER, fact_threshold=0.5)))
    # f3 (0.55) now kept: C (0.7 + 0.55)/2 = 0.625, D 0.55
    assert ents == approx({"A": 0.9, "B": 0.8, "C": 0.625, "D": 0.55})


def test_schema_filter_is_the_callers_switch():
    # schema_filter changes which hits the caller fetches, not the seeds of the same hits
    assert _raw(dataclasses.replace(PAPER, schema_filter=True)) == _raw(PAPER)


def test_seed_config_defaults_and_validation():
    cfg = SeedConfig()
    assert (cfg.entity_weighting, cfg.schema_filter, cfg.alpha, cfg.fact_threshold, cfg.top_k_facts) == (
        "hipporag", False, 0.05, 0.6, 5)
    paper = SeedConfig.paper()
    assert (paper.entity_weighting, paper.schema_filter, paper.hub_suppression, paper.density) == (
        "mean", True, True, True)
    with pytest.raises(ValueError, match="entity_weighting"):
        SeedConfig(entity_weighting="max")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="top_k_facts"):
        SeedConfig(top_k_facts=0)


# --- HippoRAG 2 --------------------------------------------------------------------------------


def test_hipporag2_seeds_hand_computed():
    facts = [FactHit("f3", 0.5, "C", "D"), FactHit("f1", 0.9, "A", "B"), FactHit("f2", 0.7, "B", "C")]
    passages = [PassageHit("p1", 0.8), PassageHit("p2", 0.6)]
    dist = hipporag2_seeds(facts, passages, entity_passage_count={"A": 1, "B": 2, "C": 1}, top_k_facts=2)
    # top-2 facts f1 0.9, f2 0.7 (no threshold) -> min-max 1.0, 0.0
    # A 1.0/1 = 1.0; B (1.0/2 + 0.0/2)/2 = 0.25; C 0.0 (dropped); D not in the top 2
    # passages: min-max 1.0, 0.0 -> 0.05 * 1.0 = 0.05, 0.0 (dropped)
    # total 1.0 + 0.25 + 0.05 = 1.3 -> A 0.769231, B 0.192308, p1 0.038462
    assert dist == approx({"A": 1 / 1.3, "B": 0.25 / 1.3, "p1": 0.05 / 1.3})
    assert math.fsum(dist.values()) == approx(1.0)
