"""The schema's cosine vector index and BM25 fulltext index answer queries."""

from __future__ import annotations

import numpy as np

DIM = 384


def _unit(vec: np.ndarray) -> list[float]:
    return (vec / np.linalg.norm(vec)).astype(float).tolist()


def _passages(rng: np.random.Generator) -> list[dict]:
    base = rng.normal(size=(3, DIM))
    texts = [
        ("Rivers", "The Danube flows through ten countries before reaching the Black Sea."),
        ("Volcanoes", "Mount Etna on Sicily is one of the most active volcanoes in Europe."),
        ("Chess", "Magnus Carlsen became world chess champion in 2013."),
    ]
    return [{"id": f"p{i}", "title": t, "text": x, "embedding": _unit(base[i])} for i, (t, x) in enumerate(texts)]


def test_vector_index_returns_nearest_passage(store, test_store, space):
    rng = np.random.default_rng(7)
    rows = _passages(rng)
    test_store.write("passages_write", space=space, rows=rows)
    store.run_implicit("admin/await_indexes", timeout=120)
    # A query close to p1 must rank it first (cosine ~0.98); unrelated random vectors sit near 0.
    query = np.array(rows[1]["embedding"]) + 0.01 * rng.normal(size=DIM)
    hits = store.read("retrieval/passage_vector", space=space, vector=_unit(query), k=3, fetch=100)
    assert [h["id"] for h in hits][0] == "p1"
    assert hits[0]["score"] > 0.95 > 0.5 > hits[1]["score"]


def test_fulltext_index_ranks_by_terms(store, test_store, space):
    test_store.write("passages_write", space=space, rows=_passages(np.random.default_rng(1)))
    store.run_implicit("admin/await_indexes", timeout=120)
    hits = store.read("retrieval/passage_fulltext", space=space, query="volcano Etna Sicily", k=3, fetch=50)[0]["hits"]
    assert hits and hits[0]["id"] == "p1"
    found = store.read("retrieval/passage_fulltext", space=space, query="Carlsen", k=3, fetch=50)[0]["hits"]
    assert found[0]["title"] == "Chess"
