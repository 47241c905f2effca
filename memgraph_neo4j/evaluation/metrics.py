"""The evaluation metrics, pure functions: retrieval recall, evidence recall, QA scores, percentiles.

- Recall@k: per question, the share of gold passages among the top k retrieved, averaged.
- Evidence recall (GraphRAG-Bench): an evidence sentence counts as found when a retrieved passage
  contains it after normalisation, or when at least `min_overlap` of its content words are in one passage.
- QA, SQuAD-style normalisation (lower case, no punctuation, no articles, single spaces): exact match,
  token F1, and containment (the paper's Str-Acc: the normalised gold answer is contained in the
  normalised prediction).
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence

KS = (1, 2, 5, 10)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation + "‘’“”–—")


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Share of the gold items among the first k ranked ones (1.0 when there is no gold to find)."""
    gold = set(gold)
    return len(gold & set(ranked[:k])) / len(gold) if gold else 1.0


def passage_recall_at_k(texts: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Gold passages given by text: found when a top-k passage holds it, or is a piece of it (the
    corpus was chunked). Whitespace does not matter."""
    gold = {" ".join(g.split()) for g in gold}
    if not gold:
        return 1.0
    top = [" ".join(t.split()) for t in texts[:k]]
    return sum(any(g in t or (t and t in g) for t in top) for g in gold) / len(gold)


def normalize_answer(text: str) -> str:
    text = text.casefold().translate(_PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


def token_f1(prediction: str, gold: str) -> float:
    predicted, expected = normalize_answer(prediction).split(), normalize_answer(gold).split()
    common = sum((Counter(predicted) & Counter(expected)).values())
    if not predicted or not expected:
        return float(predicted == expected)
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def containment(prediction: str, gold: str) -> float:
    expected = normalize_answer(gold)
    return float(bool(expected) and expected in normalize_answer(prediction))


def evidence_found(evidence: str, passages: Sequence[str], min_overlap: float = 0.8) -> bool:
    """The sentence is in a passage, or `min_overlap` of its content words are in one passage."""
    sentence = normalize_answer(evidence)
    if not sentence:
        return False
    words = set(sentence.split())
    for passage in passages:
        text = normalize_answer(passage)
        if sentence in text or len(words & set(text.split())) >= min_overlap * len(words):
            return True
    return False


def evidence_recall_at_k(passages: Sequence[str], evidence: Sequence[str], k: int, min_overlap: float = 0.8) -> float:
    if not evidence:
        return 1.0
    top = passages[:k]
    return sum(evidence_found(e, top, min_overlap) for e in evidence) / len(evidence)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, q in [0, 1]; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
