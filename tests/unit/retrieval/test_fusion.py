"""memgraphrag's last step: route shares (retrieval/fusion.py), against hand-computed values."""

from __future__ import annotations

import pytest

from memgraph_neo4j.retrieval.fusion import Route, fuse


def test_each_route_gives_its_share_of_its_own_total():
    ppr = Route({"a": 0.2, "b": 0.1}, total=0.4)  # passages outside the top hold the other 0.1
    bm25 = Route({"b": 6.0, "c": 2.0}, total=10.0)
    got = dict(fuse([ppr, bm25]))
    assert got == pytest.approx({"a": 0.5, "b": 0.25 + 0.6, "c": 0.2})
    assert [p for p, _ in fuse([ppr, bm25])] == ["b", "a", "c"]


def test_a_diffuse_route_steers_less_than_a_concentrated_one():
    # the same top scores, but BM25's evidence is spread over many passages (common words)
    concentrated = fuse([Route({"a": 1.0}, 2.0), Route({"b": 1.0}, 1.5)])
    assert [p for p, _ in concentrated] == ["b", "a"]
    diffuse = fuse([Route({"a": 1.0}, 2.0), Route({"b": 1.0}, 50.0)])
    assert [p for p, _ in diffuse] == ["a", "b"]


def test_empty_and_zero_totals_give_no_share_and_ties_go_to_the_lower_id():
    assert fuse([Route({}, 0.0), Route({"x": 1.0}, 0.0)]) == []
    assert [p for p, _ in fuse([Route({"b": 1.0, "a": 1.0}, 2.0)])] == ["a", "b"]


def test_confidence_is_the_share_its_best_passages_hold():
    route = Route({"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0}, total=10.0)
    assert route.confidence(1) == pytest.approx(0.3)
    assert route.confidence(2) == pytest.approx(0.5)
    assert route.confidence(10) == pytest.approx(0.6)  # the rest of the total lies outside the top
    assert route.confidence(0) == 1.0  # no weighting
    assert Route({"a": 1.0}, 0.0).confidence(5) == 0.0
    assert Route({"a": 2.0}, 1.0).confidence(5) == 1.0  # a bounded total (Lucene) never weights above 1


def test_confidence_weights_each_route_by_its_own_top_and_changes_nothing_at_zero():
    ppr = Route({"a": 0.2, "b": 0.1}, total=0.4)
    bm25 = Route({"b": 6.0, "c": 2.0}, total=10.0)
    assert fuse([ppr, bm25], 0) == fuse([ppr, bm25])
    # top-1 confidence: PageRank 0.5, BM25 0.6
    got = dict(fuse([ppr, bm25], 1))
    assert got == pytest.approx({"a": 0.5 * 0.5, "b": 0.5 * 0.25 + 0.6 * 0.6, "c": 0.6 * 0.2})
    # a walk spread over many passages (a hub seed) yields to a route sure of one passage ...
    spread = Route({"a": 0.12, "b": 0.11, "d": 0.1}, total=1.0)  # top-2 confidence 0.23
    sure = Route({"e": 8.0, "c": 1.0}, total=10.0)  # 0.9
    assert [p for p, _ in fuse([spread, sure])] == ["e", "a", "b", "c", "d"]
    assert [p for p, _ in fuse([spread, sure], 2)] == ["e", "c", "a", "b", "d"]
    # ... and a concentrated walk keeps its passage first against diffuse words
    walk = Route({"a": 0.6, "b": 0.1}, total=1.0)
    words = Route({"b": 3.0, "c": 2.0}, total=8.0)
    assert [p for p, _ in fuse([walk, words], 5)][0] == "a"
