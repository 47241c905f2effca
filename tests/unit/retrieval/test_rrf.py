"""Reciprocal Rank Fusion against hand-computed ranks (k = 60)."""

from __future__ import annotations

import pytest

from memgraph_neo4j.retrieval.rrf import rrf


def test_fused_scores_and_order_match_the_hand_computation():
    dense = ["a", "b", "c", "d"]
    bm25 = ["c", "a", "e"]
    facts = ["e", "c"]
    fused = rrf([dense, bm25, facts], k=60)
    # a: 1/61 + 1/62;  c: 1/63 + 1/61 + 1/62;  e: 1/63 + 1/61;  b: 1/62;  d: 1/64
    expected = {"a": 1 / 61 + 1 / 62, "b": 1 / 62, "c": 1 / 63 + 1 / 61 + 1 / 62, "d": 1 / 64,
                "e": 1 / 63 + 1 / 61}
    assert [item for item, _ in fused] == ["c", "a", "e", "b", "d"]
    for item, score in fused:
        assert score == pytest.approx(expected[item], abs=1e-12)


def test_ties_go_to_the_better_best_rank_then_the_lower_id():
    # x and y both appear once at rank 1 and 2 of the other list: equal scores, equal best rank -> id
    fused = rrf([["x", "y"], ["y", "x"]])
    assert [i for i, _ in fused] == ["x", "y"]
    assert fused[0][1] == pytest.approx(fused[1][1])
    # with k = 0 a rank r weighs 1/r: p = 1, z = 1, q = 1/2 + 1/2 = 1, a three-way tie; p and z were
    # first somewhere (best rank 1) and q only second: p, z (lower id first), then q
    assert [i for i, _ in rrf([["p", "q"], ["z", "q"]], k=0)] == ["p", "z", "q"]


def test_weights_and_duplicates_within_one_list():
    fused = dict(rrf([["a", "a", "b"], ["b"]], k=60, weights=[1.0, 0.5]))
    assert fused["a"] == pytest.approx(1 / 61)  # counted once, at its first rank
    assert fused["b"] == pytest.approx(1 / 63 + 0.5 / 61)  # ranks are positions: b is third
    with pytest.raises(ValueError):
        rrf([["a"]], weights=[1.0, 2.0])
    assert rrf([]) == []
