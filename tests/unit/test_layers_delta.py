"""LayerSnapshot.apply (retrieval/layers.py, layer_rows.py): a copy updated in place equals a fresh build."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_neo4j.repository.layers import ExportRow, LayerRequest
from memgraph_neo4j.retrieval.layers import LayerSnapshot, top_rows

DIM = 8
IDS = {"fact": [f"f{i}" for i in range(12)], "schema": [f"s{i}" for i in range(6)],
       "passage": [f"p{i}" for i in range(10)]}
STATES = {"fact": ["active", "pending", "discarded"], "schema": ["stable", "candidate"], "passage": [None]}
REQUEST_LAYER = {"fact": "facts", "schema": "schemas", "passage": "passages"}

# small integer components: the same vectors (and the same scores) come up again and again
_small = st.lists(st.integers(-2, 2), min_size=DIM, max_size=DIM)
_base = st.one_of(_small, st.lists(st.floats(-1, 1, width=32), min_size=DIM, max_size=DIM))
# a direction scaled: equal after normalisation, or equal up to the last bits (near ties)
vectors = st.tuples(_base, st.sampled_from([1.0, 2.0, 3.0, 0.1, 7.0])).map(lambda t: [x * t[1] for x in t[0]])


@st.composite
def export_rows(draw) -> ExportRow:
    layer = draw(st.sampled_from(list(IDS)))
    id_ = draw(st.sampled_from(IDS[layer]))
    state = draw(st.sampled_from(STATES[layer]))
    text = draw(st.sampled_from([None, "a", "b"]))
    fields = {"fact": [draw(st.sampled_from(["h1", "h2"])), "t"],
              "schema": ["A", draw(st.sampled_from(["r", "q"])), "B"],
              "passage": [draw(st.sampled_from([None, "T"]))]}[layer]
    return ExportRow(layer, id_, state, text, draw(vectors), fields)


pairs = st.sampled_from(list(IDS)).flatmap(lambda layer: st.tuples(st.just(layer), st.sampled_from(IDS[layer])))
changes = st.tuples(st.lists(export_rows(), max_size=6), st.lists(pairs, max_size=4))


@st.composite
def requests(draw) -> list[LayerRequest]:
    out = []
    for layer in ("fact", "schema", "passage"):
        states = None
        if layer != "passage" and draw(st.booleans()):
            states = draw(st.lists(st.sampled_from(STATES[layer]), unique=True))
        out.append(LayerRequest(REQUEST_LAYER[layer], draw(st.integers(0, 14)), 0, states))
    return out


def _final(initial: list[ExportRow], steps: list[tuple[list[ExportRow], list[tuple[str, str]]]]) -> list[ExportRow]:
    """What apply promises: removals first, then the rows, the last row of an id winning."""
    model = {(r.layer, r.id): r for r in initial}
    for upserts, removed in steps:
        for pair in removed:
            model.pop(pair, None)
        model.update({(r.layer, r.id): r for r in upserts})
    return list(model.values())


def _reference(canonical, vector, request: LayerRequest) -> list[str]:
    """Brute force: every allowed row's exact cosine, best first, ties by id."""
    layer = canonical[{v: k for k, v in REQUEST_LAYER.items()}[request.layer]]
    q = np.asarray(vector, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    scores = (layer.matrix.astype(np.float64) * q.astype(np.float64)).sum(axis=1)
    ranked = sorted((-scores[i], id_) for i, id_ in enumerate(layer.ids)
                    if request.states is None or layer.states[i] in request.states)
    return [id_ for _, id_ in ranked[:request.k]]


def _hits(snapshot: LayerSnapshot, vector, asked: list[LayerRequest]) -> dict[str, list[tuple[str, float]]]:
    out = snapshot.search(vector, asked)
    return {name: [(h.id, h.score) for h in getattr(out, name)] for name in ("facts", "schemas", "passages")}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(initial=st.lists(export_rows(), max_size=25), steps=st.lists(changes, max_size=8), data=st.data())
def test_an_updated_copy_equals_a_fresh_build(initial, steps, data):
    snapshot = LayerSnapshot(initial, DIM)
    for upserts, removed in steps:
        snapshot.apply(upserts, removed)
        snapshot.search([1] * DIM, [LayerRequest("facts", 3, 0, ["active"])])  # a cached mask kept up to date
    final = _final(initial, steps)
    fresh = LayerSnapshot(data.draw(st.permutations(final)), DIM)
    assert snapshot.canonical() == fresh.canonical()
    canonical = fresh.canonical()
    for _ in range(3):
        vector, asked = data.draw(vectors), data.draw(requests())
        got, want = _hits(snapshot, vector, asked), _hits(fresh, vector, asked)
        for name, request in zip(("facts", "schemas", "passages"), asked):
            assert [i for i, _ in got[name]] == [i for i, _ in want[name]] == _reference(canonical, vector, request)
            assert [s for _, s in got[name]] == pytest.approx([s for _, s in want[name]], abs=1e-6)


def test_rows_normalised_by_a_build_and_by_an_apply_are_bit_identical():
    rng = np.random.default_rng(7)
    all_rows = [ExportRow("passage", f"p{i}", None, None, (rng.standard_normal(384) * 40).tolist(), ["T"])
                for i in range(300)]
    snapshot = LayerSnapshot(all_rows[:100], 384)
    i = 100
    while i < 300:  # one row, then a few at a time, over several growths of the buffers
        snapshot.apply(all_rows[i:i + i % 5 + 1])
        i += i % 5 + 1
    snapshot.apply(all_rows[::3])  # replaced by the same rows
    fresh = LayerSnapshot(all_rows[::-1], 384)
    assert snapshot.canonical() == fresh.canonical()
    assert np.array_equal(snapshot.canonical()["passage"].matrix, fresh.canonical()["passage"].matrix)
    q = rng.standard_normal(384).tolist()
    asked = [LayerRequest("passages", 40, 0)]
    assert snapshot.search(q, asked) == fresh.search(q, asked)


def _row(layer, id_, vector, state=None):
    return ExportRow(layer, id_, state, f"text {id_}", list(vector), ["a", "b", "c"])


def test_a_mismatched_dimension_is_named_and_changes_nothing():
    snapshot = LayerSnapshot([_row("fact", "f1", [1, 0, 0], "active")], 3)
    before = snapshot.canonical()
    with pytest.raises(ValueError, match="fact 'f2' has a 2-dimensional embedding, the query 3"):
        snapshot.apply([_row("fact", "f1", [0, 1, 0], "pending"), _row("fact", "f2", [1, 0], "active")],
                       [("fact", "f1")])
    assert snapshot.canonical() == before
    with pytest.raises(ValueError, match="no vector layer named 'facts'"):
        snapshot.apply([], [("facts", "f1")])


def test_removed_rows_are_never_returned_and_states_follow_updates():
    rows = [_row("fact", f"f{i}", [1, i / 10, 0], "active") for i in range(10)]
    snapshot = LayerSnapshot(rows, 3)
    everything = [LayerRequest("facts", 100, 0, None)]
    active = [LayerRequest("facts", 100, 0, ["active"])]
    assert len(snapshot.search([1, 0, 0], active).facts) == 10  # the mask is now cached
    snapshot.apply([], [("fact", "f0"), ("fact", "f5"), ("fact", "nope"), ("schema", "f1")])
    snapshot.apply([_row("fact", "f3", [1, 0.3, 0], "discarded")])
    ids = [f.id for f in snapshot.search([1, 0, 0], everything).facts]
    assert sorted(ids) == sorted(f"f{i}" for i in (1, 2, 3, 4, 6, 7, 8, 9))
    assert "f3" not in [f.id for f in snapshot.search([1, 0, 0], active).facts]
    assert [f.id for f in snapshot.search([1, 0, 0], [LayerRequest("facts", 5, 0, ["discarded"])]).facts] == ["f3"]
    snapshot.apply([], [("fact", f"f{i}") for i in range(10)])
    assert snapshot.search([1, 0, 0], everything).facts == []
    snapshot.apply([_row("fact", "f5", [0, 1, 0], "active")])  # back, with another vector
    assert [(f.id, round(f.score, 6)) for f in snapshot.search([0, 1, 0], active).facts] == [("f5", 1.0)]


def test_ties_are_broken_by_id_given_keys_and_by_row_without():
    scores = np.array([0.5, 0.9, 0.5, 0.5, 0.9, 0.1])
    keys = ["d", "z", "b", "c", "a", "e"]
    assert top_rows(scores, None, 3, keys).tolist() == [4, 1, 2]  # 0.9: a before z; 0.5 at the boundary: b
    assert top_rows(scores, None, 6, keys).tolist() == [4, 1, 2, 3, 0, 5]
    assert top_rows(scores, np.array([True, True, False, True, True, True]), 3, keys).tolist() == [4, 1, 3]
    assert top_rows(scores, None, 2).tolist() == [1, 4]  # BM25's use: lower row first
    rows = [_row("passage", name, [1, 0, 0]) for name in ("p3", "p1", "p2")]
    hits = LayerSnapshot(rows, 3).search([1, 0, 0], [LayerRequest("passages", 2, 0)]).passages
    assert [h.id for h in hits] == ["p1", "p2"]


@pytest.mark.parametrize("dimension", [8, 96])
def test_near_ties_are_ranked_by_exact_score_not_by_blas_noise(dimension):
    """One direction at several scales: unit rows equal up to their last bits, whose BLAS scores differ
    by about as much as BLAS's own error, which depends on the row's position."""
    rng = np.random.default_rng(dimension)
    directions = rng.standard_normal((4, dimension))
    rows = [ExportRow("passage", f"p{d}-{j}", None, None, (directions[d] * scale).tolist(), [None])
            for d in range(4) for j, scale in enumerate(rng.uniform(0.01, 100, 25))]
    order = rng.permutation(len(rows))
    snapshot = LayerSnapshot([rows[i] for i in order], dimension)
    canonical = snapshot.canonical()
    for _ in range(40):
        vector = (directions[rng.integers(4)] + rng.standard_normal(dimension) * 0.3).tolist()
        request = LayerRequest("passages", int(rng.integers(1, 30)), 0)
        got = [h.id for h in snapshot.search(vector, [request]).passages]
        assert got == _reference(canonical, vector, request)
