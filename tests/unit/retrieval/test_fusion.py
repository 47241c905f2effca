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
