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


def test_fulltext_reads_see_every_commit_at_once(store, test_store, space):
    # The fulltext indexes are eventually consistent (a commit queues its Lucene updates): their reads await
    # the queue first, so a read right after each of 20 commits finds what it wrote, in all three indexes.
    for i in range(20):
        word = f"zqx{i}vul"
        test_store.write("passages_write", space=space, rows=[{"id": f"p{i}", "title": "Probe", "text": f"about {word}",
                                                                "embedding": None}])
        test_store.write("fulltext_probe_write", space=space, id=f"x{i}", words=f"{word} probe")
        passages = store.read("retrieval/passage_fulltext", space=space, query=word, k=3, fetch=50)[0]["hits"]
        entities = store.read("conversation/entity_fulltext", space=space, query=word, k=3, fetch=50)[0]["hits"]
        facts = store.read("conversation/fact_fulltext", space=space, query=word, k=3, fetch=50, states=["active"],
                           as_of=None)[0]["hits"]
        known = store.read("memory/known_entities", space=space, query=word, fetch=50, limit=3)
        assert [h["id"] for h in passages] == [f"p{i}"]
        assert [h["id"] for h in entities] == [h["id"] for h in facts] == [f"x{i}"]
        assert [r["name"] for r in known] == [f"{word} probe"]


def test_init_replaces_fulltext_indexes_refreshed_at_commit(store, test_store, space, test_settings):
    # A database made before: its passage index refreshed the Lucene reader at every commit. `init` drops it
    # and leaves the three eventually consistent ones, which still answer.
    test_store.run_implicit("drop_passage_text_search")
    test_store.run_implicit("legacy_fulltext_index")
    assert "passage_text" in {r["name"] for r in test_store.read("fulltext_index_options")}
    store.init_schema(test_settings.embedding_dimension)
    options = {r["name"]: r["eventually_consistent"] for r in test_store.read("fulltext_index_options")}
    assert "passage_text" not in options
    assert {options.get(n) for n in ("passage_text_search", "entity_name_search", "fact_text_search")} == {True}
    test_store.write("passages_write", space=space, rows=_passages(np.random.default_rng(1)))
    hits = store.read("retrieval/passage_fulltext", space=space, query="Carlsen", k=3, fetch=50)[0]["hits"]
    assert [h["title"] for h in hits] == ["Chess"]
