"""Bm25Index kept up to date from changes (`apply`) scores exactly as one built afresh from the result."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.bm25_index import Bm25Index, SpaceBm25
from memgraph_neo4j.retrieval.changes import ChangeFeed

# a tiny vocabulary and id pool: shared terms, equal scores and replaced ids are the common case
WORDS = ["a", "b", "c", "Dd", "e"]
IDS = ["p0", "p1", "p2", "p10", "p11", "p3", "x"]  # "p10" < "p2": id order is not the order of arrival
texts = st.one_of(st.none(), st.lists(st.sampled_from(WORDS + ["a,", "B!"]), max_size=7).map(" ".join))
passages = st.builds(PassageMatch, st.sampled_from(IDS), st.just(0.0), texts, texts)
steps = st.lists(st.tuples(st.lists(passages, max_size=4), st.lists(st.sampled_from(IDS + ["unknown"]), max_size=3)),
                 max_size=8)
questions = st.lists(st.lists(st.sampled_from(WORDS + ["zz"]), max_size=6).map(" ".join), min_size=1, max_size=4)


def unique(ps: list[PassageMatch]) -> dict[str, PassageMatch]:
    return {p.id: p for p in ps}  # the last of an id wins, as in apply


def assert_same(index: Bm25Index, corpus: dict[str, PassageMatch], asked: list[str]) -> None:
    fresh = Bm25Index(list(corpus.values()))
    assert index.canonical() == fresh.canonical()
    assert [p.id for p in index.passages] == sorted(corpus) and len(index) == len(corpus)
    for question in asked:
        assert np.array_equal(index.scores(question), fresh.scores(question))  # same floats, not close ones
        for k in (1, 3, len(corpus) + 1):
            assert index.top(question, k) == fresh.top(question, k)


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(passages, max_size=8), steps, questions, st.sampled_from([0.0, 0.1, 0.5, 100.0]),
       st.sampled_from([0, 2, 64]))
def test_updated_index_equals_a_fresh_build(initial, changes, asked, fraction, minimum):
    corpus = unique(initial)
    index = Bm25Index(list(corpus.values()))
    index.COMPACT_FRACTION, index.COMPACT_MIN = fraction, minimum  # low ones compact often, high ones never
    assert_same(index, corpus, asked)
    for upserts, removed in changes:
        index.apply(upserts, removed)
        corpus.update(unique(upserts))
        for pid in removed:
            corpus.pop(pid, None)
        assert_same(index, corpus, asked)


def corpus_of(n: int, seed: int) -> list[PassageMatch]:
    rng = np.random.default_rng(seed)
    return [PassageMatch(f"q{i:03d}", 0.0, " ".join(rng.choice(WORDS, rng.integers(0, 3))),
                         " ".join(rng.choice(WORDS, rng.integers(0, 12)))) for i in range(n)]


def test_changes_cross_the_compaction_threshold_and_stay_exact():
    corpus = {p.id: p for p in corpus_of(40, 1)}
    index = Bm25Index(list(corpus.values()))
    index.COMPACT_MIN = 4  # 10 % of 40 rows: the fifth changed row compacts
    extra, compactions = corpus_of(60, 2)[40:], 0
    for i, p in enumerate(extra):
        removed = [f"q{3 * i:03d}"] if i % 2 else []
        index.apply([p], removed)
        corpus[p.id] = p
        for pid in removed:
            corpus.pop(pid, None)
        compactions += index._order is None  # rows back in id order: compacted
        assert_same(index, corpus, ["a b", "Dd Dd e", "c a e b"])
    assert compactions >= 3


def test_replacing_a_passage_moves_its_statistics_and_ties_go_to_the_lower_id():
    index = Bm25Index([PassageMatch("p2", 0.0, None, "a b"), PassageMatch("p1", 0.0, "t", "a c")])
    index.apply([PassageMatch("p0", 0.0, None, "a b"), PassageMatch("p1", 0.0, None, "c")], removed=["nope"])
    assert [p.id for p in index.search("a b", k=3)] == ["p0", "p2"]  # equal scores: lower id first
    assert index.canonical()["title"]["n"] == 0 and index.canonical()["text"]["terms"]["c"] == (1, {"p1": 1})
    index.apply([], removed=["p0", "p2"])
    assert [p.id for p in index.search("a b c", k=3)] == ["p1"]
    index.apply([], removed=["p1"])
    assert len(index) == 0 and index.search("a", k=3) == [] and index.scores("a").shape == (0,)


def test_space_bm25_top_reads_the_updated_rows():
    corpus = corpus_of(30, 3)
    search = SimpleNamespace(corpus=lambda: corpus)
    space = SpaceBm25(search, lambda: 1, lambda version: SimpleNamespace(passages=len(corpus)),
                      ChangeFeed(SimpleNamespace(), lambda: 0))  # the first read builds: no feed read
    index = space.index()
    index.apply(corpus_of(33, 4)[30:], removed=["q000", "q005"])
    fresh = Bm25Index(corpus[1:5] + corpus[6:] + corpus_of(33, 4)[30:])
    hits = space.top("a b Dd", 5)
    assert (hits.passages, hits.total) == fresh.top("a b Dd", 5)
    assert [p.id for p in hits.passages] == [p.id for p in fresh.search("a b Dd", 5)]
