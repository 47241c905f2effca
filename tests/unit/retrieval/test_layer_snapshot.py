"""The in-process exact layer search (retrieval/layers.py) on hand-made vectors."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph_neo4j.repository.layers import ExportRow, FactMatch, LayerRequest, PassageMatch, SchemaMatch
from memgraph_neo4j.retrieval.layers import LayerSnapshot, top_rows


def test_top_rows_orders_by_score_then_row_and_respects_the_mask():
    scores = np.array([0.2, 0.9, 0.5, 0.9, -0.1])
    assert top_rows(scores, None, 3).tolist() == [1, 3, 2]  # tie 0.9: lower row first
    allowed = np.array([True, False, True, False, True])
    assert top_rows(scores, allowed, 2).tolist() == [2, 0]
    assert top_rows(scores, allowed, 10).tolist() == [2, 0, 4]  # never more than the allowed rows
    assert top_rows(scores, None, 0).tolist() == []


def _row(layer, id_, vector, state=None, text=None, fields=(None, None, None)):
    return ExportRow(layer, id_, state, text, list(vector), list(fields))


def _requests(fact_states, k_facts, schema_states, k_schemas, k_passages):
    return [LayerRequest("facts", k_facts, 0, fact_states), LayerRequest("schemas", k_schemas, 0, schema_states),
            LayerRequest("passages", k_passages, 0)]


def test_snapshot_search_is_exact_cosine_per_layer_and_state():
    rows = [
        _row("fact", "f1", [1, 0, 0], "active", "a likes b", ("a", "b")),
        _row("fact", "f2", [2, 2, 0], "pending", "a knows c", ("a", "c")),  # unnormalised: cosine all the same
        _row("fact", "f3", [0, 0, 1], "discarded", "x", ("x", "y")),
        _row("schema", "s1", [0, 1, 0], "stable", fields=("Person", "knows", "Person")),
        _row("passage", "p1", [1, 1, 1], text="text 1", fields=("Title 1", None, None)),
        _row("passage", "p2", [1, 0, 0], text="text 2", fields=("Title 2", None, None)),
    ]
    snapshot = LayerSnapshot(rows, 3)
    out = snapshot.search([3, 0, 0], _requests(["active", "pending"], 5, ["stable"], 5, 1))
    assert [(f.id, f.head_id, f.tail_id) for f in out.facts] == [("f1", "a", "b"), ("f2", "a", "c")]
    assert [f.score for f in out.facts] == pytest.approx([1.0, 1 / np.sqrt(2)])
    assert out.facts[0] == FactMatch("f1", pytest.approx(1.0), "a likes b", "a", "b")
    assert out.schemas == [SchemaMatch("s1", pytest.approx(0.0), "Person", "knows", "Person")]
    assert out.schemas[0].text == "Person -knows-> Person"
    assert out.passages == [PassageMatch("p2", pytest.approx(1.0), "Title 2", "text 2")]
    assert snapshot.search([0, 0, 1], _requests(["discarded"], 5, [], 5, 0)).facts[0].id == "f3"
    assert snapshot.search([0, 0, 1], _requests(["active"], 5, [], 5, 0)).schemas == []


def test_mismatched_dimensions_are_named():
    with pytest.raises(ValueError, match="fact 'f1' has a 2-dimensional embedding, the query 3"):
        LayerSnapshot([_row("fact", "f1", [1, 0], "active")], 3)
    snapshot = LayerSnapshot([_row("passage", "p", [1, 0, 0])], 3)
    with pytest.raises(ValueError, match="query vector has 4 dimensions, the layers 3"):
        snapshot.search([1, 0, 0, 0], _requests([], 1, [], 1, 1))
