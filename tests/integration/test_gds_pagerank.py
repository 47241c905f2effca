"""GDS personalised PageRank with weighted seeds (`sourceNodes: [[node, weight], ...]`)."""

from __future__ import annotations

import numpy as np
import pytest

DAMPING = 0.5  # probability of following an edge; restart probability 0.5


def reference_ppr(edges: list[tuple[str, str]], seeds: dict[str, float], damping: float) -> dict[str, float]:
    """Power iteration of GDS's (unnormalised) personalised PageRank on an undirected graph:
    s = (1 - d) * w + d * A^T D^-1 s, with w the raw seed weights."""
    names = sorted({n for e in edges for n in e})
    index = {n: i for i, n in enumerate(names)}
    adj = np.zeros((len(names), len(names)))
    for a, b in edges:
        adj[index[a], index[b]] += 1
        adj[index[b], index[a]] += 1
    transition = adj / adj.sum(axis=1, keepdims=True)
    teleport = np.array([seeds.get(n, 0.0) for n in names])
    scores = teleport * (1 - damping)
    for _ in range(500):
        scores = (1 - damping) * teleport + damping * transition.T @ scores
    return dict(zip(names, scores))


@pytest.fixture
def ppr_graph(test_store, store, space):
    graph = f"ppr_{space}"
    test_store.write("ppr_graph", space=space)
    projected = test_store.write("ppr_project", space=space, graph=graph)[0]
    assert projected == {"nodes": 5, "rels": 8}
    yield graph
    store.write("admin/drop_graph", name=graph)


@pytest.mark.parametrize(
    "seeds, expected_order",
    [
        ({"a": 0.9, "b": 0.1}, ["a", "x", "c", "b", "y"]),
        ({"a": 0.1, "b": 0.9}, ["b", "y", "c", "a", "x"]),
    ],
)
def test_seed_weights_change_the_winner(test_store, space, ppr_graph, seeds, expected_order):
    rows = test_store.read("ppr_stream", space=space, graph=ppr_graph, seeds=seeds, damping=DAMPING)
    assert [r["name"] for r in rows] == expected_order

    edges = [(r["s"], r["t"]) for r in test_store.read("ppr_edges", space=space)]
    expected = reference_ppr(edges, seeds, DAMPING)
    for row in rows:
        assert row["score"] == pytest.approx(expected[row["name"]], abs=1e-4)
