"""The in-process BM25 of one space: Lucene's formula with the space's own statistics."""

from __future__ import annotations

import math

import pytest

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.bm25_index import Bm25Index, words

PASSAGES = [PassageMatch("p2", 0.0, "Warsaw", "Warsaw is the capital of Poland."),
            PassageMatch("p1", 0.0, "Vistula", "The Vistula flows through Warsaw, Krakow."),
            PassageMatch("p3", 0.0, None, "Krakow was the capital before Warsaw.")]


def bm25(tf: int, length: int, average: float, n: int, df: int) -> float:
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    return idf * tf / (tf + 1.2 * (1 - 0.75 + 0.75 * length / average))


def test_words_are_the_alphanumeric_runs_bm25_query_sends():
    assert words("Who's the CEO of AT&T, since 1999?") == ["who", "s", "the", "ceo", "of", "at", "t", "since", "1999"]
    assert words(None) == []


def test_scores_are_lucene_bm25_per_field_with_the_space_statistics():
    index = Bm25Index(PASSAGES)
    assert [p.id for p in index.passages] == ["p1", "p2", "p3"]  # rows by id
    scores = index.scores("capital Warsaw")
    text_avg, title_avg = (6 + 6 + 6) / 3, (1 + 1) / 2  # the title field: 2 passages have one
    # "capital": text of p2 and p3 (df 2 of 3); "warsaw": text of all three, title of p2 (title N = 2)
    p2 = bm25(1, 6, text_avg, 3, 2) + bm25(1, 6, text_avg, 3, 3) + bm25(1, 1, title_avg, 2, 1)
    p1 = bm25(1, 6, text_avg, 3, 3)
    p3 = bm25(1, 6, text_avg, 3, 2) + bm25(1, 6, text_avg, 3, 3)
    assert scores == pytest.approx([p1, p2, p3])
    # a word asked twice counts twice, as two clauses of the Lucene query do
    assert index.scores("capital capital")[1] == pytest.approx(2 * bm25(1, 6, text_avg, 3, 2))


def test_search_ranks_the_matching_passages_only_and_breaks_ties_by_id():
    index = Bm25Index(PASSAGES)
    hits = index.search("capital of Poland", k=5)
    assert [h.id for h in hits] == ["p2", "p3"]  # p1 has none of the words
    assert hits[0].title == "Warsaw" and hits[0].text.startswith("Warsaw is")
    assert [h.id for h in index.search("Warsaw", k=2)] == ["p2", "p1"]  # p1 and p3 tie: lower id first
    assert index.search("Gdansk", k=3) == [] and index.search("", k=3) == []
    assert Bm25Index([]).search("Warsaw", k=3) == []
