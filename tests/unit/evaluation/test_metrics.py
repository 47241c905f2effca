"""Evaluation metrics against values computed by hand."""

from __future__ import annotations

import pytest

from memgraph_neo4j.evaluation.metrics import (
    containment,
    evidence_recall_at_k,
    exact_match,
    normalize_answer,
    passage_recall_at_k,
    percentile,
    recall_at_k,
    token_f1,
)


def test_recall_at_k():
    ranked = ["A", "x", "B", "y", "C"]
    assert recall_at_k(ranked, {"A", "B", "C"}, 1) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, {"A", "B", "C"}, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, {"A", "B", "C"}, 3) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, {"A", "B", "C"}, 10) == 1.0
    assert recall_at_k(ranked, {"A", "A"}, 1) == 1.0  # gold is a set
    assert recall_at_k(ranked, set(), 5) == 1.0


def test_passage_recall_matches_text_or_its_chunks():
    retrieved = ["Warsaw is the capital   of Poland.", "Unrelated."]
    assert passage_recall_at_k(retrieved, ["Warsaw is the capital of Poland."], 1) == 1.0
    # the corpus chunked a long gold passage: its first chunk was retrieved
    assert passage_recall_at_k(retrieved, ["Warsaw is the capital of Poland. It lies on the Vistula."], 1) == 1.0
    assert passage_recall_at_k(retrieved[1:], ["Warsaw is the capital of Poland."], 1) == 0.0
    assert passage_recall_at_k(retrieved, ["Warsaw is the capital of Poland.", "Kraków was the capital."], 2) == 0.5


def test_answer_normalisation_and_exact_match():
    assert normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert normalize_answer("an Apple, a day") == "apple day"
    assert exact_match("Poland.", "poland") == 1.0
    assert exact_match("Warsaw, Poland", "Poland") == 0.0


def test_token_f1_by_hand():
    # prediction "warsaw poland" vs gold "poland": common 1, precision 1/2, recall 1/1 -> F1 2/3
    assert token_f1("Warsaw, Poland", "Poland") == pytest.approx(2 / 3)
    # "in 1867 in warsaw" vs "7 november 1867": common {1867} -> precision 1/4, recall 1/3 -> F1 2/7
    assert token_f1("in 1867 in Warsaw", "7 November 1867") == pytest.approx(2 / 7)
    assert token_f1("Paris", "London") == 0.0
    assert token_f1("the", "a") == 1.0  # both empty after normalisation


def test_containment_is_str_acc():
    assert containment("She was born in Warsaw, Poland.", "Poland") == 1.0
    assert containment("Poland", "Warsaw, Poland") == 0.0
    assert containment("anything", "the") == 0.0  # an empty gold answer is never contained


def test_evidence_recall_by_containment_or_overlap():
    passages = ["Marie Curie was born in Warsaw in 1867. She moved to Paris.", "Unrelated text."]
    evidence = ["Marie Curie was born in Warsaw in 1867.", "Curie moved to Paris later in life",
                "She won two Nobel prizes."]
    # 1: contained; 2: words {curie, moved, to, paris, later, in, life}: 5 of 7 in passage 1 = 0.71 < 0.8;
    # 3: not found -> 1/3
    assert evidence_recall_at_k(passages, evidence, 2) == pytest.approx(1 / 3)
    assert evidence_recall_at_k(passages, evidence, 2, min_overlap=0.7) == pytest.approx(2 / 3)
    assert evidence_recall_at_k(passages[1:], evidence, 1) == 0.0


def test_percentile_nearest_rank():
    assert percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert percentile(list(range(1, 101)), 0.95) == 95
    assert percentile([], 0.5) == 0.0
