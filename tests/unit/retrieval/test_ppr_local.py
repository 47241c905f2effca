"""The in-process PPR and the seed statistics snapshot: pure functions, hand-checked values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from memgraph_neo4j.repository.statistics import SpaceMentions
from memgraph_neo4j.retrieval.base import Hit
from memgraph_neo4j.retrieval.ppr import local as ppr_local
from memgraph_neo4j.retrieval.statistics import StatisticsSnapshot


def path_graph() -> ppr_local.LocalGraph:
    # a - b - c undirected with weights 1 (a-b) and 3 (b-c); GDS streams both directions of each
    nodes = ppr_local.NodeTable([30, 10, 20], ["passage", "entity", "entity"], ["c", "a", "b"], ["C", "A", "B"])
    return ppr_local.build_local_graph(nodes, sources=[10, 20, 20, 30], targets=[20, 10, 30, 20],
                                       weights=[1.0, 1.0, 3.0, 3.0])


def test_transition_rows_are_normalised_by_weighted_degree():
    graph = path_graph()
    a, b, c = (graph.nodes.row(kind, i) for kind, i in (("entity", "a"), ("entity", "b"), ("passage", "c")))
    assert (a, b, c) == (1, 2, 0)  # rows follow the node table, not the GDS ids
    dense = graph.transition_t.toarray()
    # column = source: a sends all to b; b sends 1/4 to a and 3/4 to c; c sends all to b
    assert dense[[a, b, c], a].tolist() == [0.0, 1.0, 0.0]
    assert dense[[a, b, c], b].tolist() == [0.25, 0.0, 0.75]
    assert dense[[a, b, c], c].tolist() == [0.0, 1.0, 0.0]


def test_personalized_pagerank_fixed_point_by_hand():
    graph = path_graph()
    scores = ppr_local.personalized_pagerank(graph.transition_t, np.array([0.0, 1.0, 0.0]), 0.5, 500, 1e-15)
    # seed a. s = 0.5 w + 0.5 T s: a = 0.5 + 0.125 b, b = 0.5 a + 0.5 c, c = 0.375 b
    # => b = 0.25 + 0.0625 b + 0.1875 b  =>  b = 1/3   (rows: c, a, b)
    b = 1 / 3
    assert scores == pytest.approx([0.375 * b, 0.5 + 0.125 * b, b], abs=1e-12)


def test_stops_at_max_iterations_and_at_tolerance():
    graph = path_graph()
    seeds = np.array([0.0, 1.0, 0.0])  # a
    one = ppr_local.personalized_pagerank(graph.transition_t, seeds, 0.5, 1, 0.0)
    assert one == pytest.approx([0.0, 0.5, 0.25])  # s0 = (1-d) w, then one step: a keeps 0.5, b gets 0.25
    loose = ppr_local.personalized_pagerank(graph.transition_t, seeds, 0.5, 500, 0.1)
    tight = ppr_local.personalized_pagerank(graph.transition_t, seeds, 0.5, 500, 1e-15)
    assert not np.allclose(loose, tight, atol=1e-6)  # a loose tolerance stops early


def test_top_by_kind_orders_and_filters():
    nodes = path_graph().nodes
    scores = np.array([0.0, 0.2, 0.5])  # c, a, b
    assert ppr_local.top_by_kind(nodes, scores, "entity", 5) == [(2, 0.5), (1, 0.2)]
    assert ppr_local.top_by_kind(nodes, scores, "entity", 1) == [(2, 0.5)]
    assert ppr_local.top_by_kind(nodes, scores, "passage", 5) == []  # score 0 is not a hit
    assert ppr_local.ranked(nodes, scores, 1, 1) == {"passage": [], "entity": [Hit(id="b", name="B", score=0.5)]}


def test_node_table_maps_gds_ids_to_rows():
    nodes = path_graph().nodes
    assert nodes.rows_of_keys(np.array([20, 30, 99, 5])).tolist() == [2, 0, -1, -1]
    assert nodes.row("entity", "c") is None  # kind and id together name a node


def test_relationship_to_an_unknown_node_is_an_error():
    with pytest.raises(ValueError, match="node 99"):
        ppr_local.build_local_graph(ppr_local.NodeTable([1], ["entity"], ["a"], ["A"]), [1], [99], [1.0])


def test_statistics_snapshot_lookup():
    snapshot = StatisticsSnapshot(SpaceMentions(["p1", "p1", "p2"], ["rare", "common", "common"], [["Person", 7]]),
                                  passages=4)
    stats = snapshot.lookup(["rare", "common", "unseen"], ["Person", "Nothing"], ["p1", "p3"])
    assert stats.entity_passages == {"rare": 1, "common": 2, "unseen": 0}
    assert stats.type_degree == {"Person": 7, "Nothing": 0}
    assert stats.passage_entities == {"p1": ["rare", "common"], "p3": []}
    assert stats.idf == pytest.approx({"rare": math.log(4), "common": math.log(2)})


@pytest.mark.parametrize("k", [1, 5, 40, 5000])
def test_top_by_kind_is_the_exact_top_k_at_size(k):
    rng = np.random.default_rng(k)
    n = 20_000
    kinds = rng.choice(["entity", "passage", "type"], n, p=[0.8, 0.19, 0.01]).tolist()
    nodes = ppr_local.NodeTable(list(range(n)), kinds, [str(i) for i in range(n)], [None] * n)
    scores = np.round(rng.random(n), 3) * (rng.random(n) < 0.7)  # ties, and 30 % unscored
    for kind in ("entity", "passage", "type"):
        rows = [i for i in range(n) if kinds[i] == kind and scores[i] > 0]
        expected = sorted(rows, key=lambda i: (-scores[i], str(i)))[:k]  # ties: the lower id
        assert [r for r, _ in ppr_local.top_by_kind(nodes, scores, kind, k)] == expected
