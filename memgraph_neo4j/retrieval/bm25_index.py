"""BM25 over the passages of one space, exact and in process.

The Lucene fulltext index is shared by all spaces, so its IDF and average lengths count every space's
passages: a space's BM25 ranking moved when another space was built. This ranks with the space's own
statistics instead, built once per memory version from its passages (cypher/retrieval/passage_corpus).
It scores as the Lucene query `w1 OR w2 ...` over the `text` and `title` fields did: Lucene's BM25
(k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), no (k1 + 1) factor), per field with
that field's N and average length, summed over fields and over the query's words (a repeated word
counts again). Words are the same alphanumeric runs `bm25_query` sends, case-folded, for passages and
queries alike; Lucene's standard tokenizer differs on a few forms (it keeps "3.5" or "don't" whole)
and stores lengths in one byte, so scores are close to Lucene's, not equal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.repository.statistics import SpaceCounts
from memgraph_neo4j.retrieval.layers import top_rows

# MuSiQue: ~2.5 KB held per passage (texts and term weights), ~8 KB at peak while building; its 1,890
# passages build in ~0.3 s, then a query takes < 1 ms. At 100k passages the build takes ~10 s once per
# memory version, and the fusion's BM25 through Lucene (hits and the space's total) cost 78 ms per query
# against 11 ms for the reads left beside the embedding with the copy (benchmarks/scale, MuSiQue x 53)
MAX_IN_PROCESS_PASSAGES = 200_000
FULLTEXT_FETCH_PER_RESULT = 20  # Lucene hits asked per result, before filtering by space
# Lucene hits summed for the fusion's BM25 total: MuSiQue's top 100 held a fraction of the total, which
# inflated BM25's shares and cost 5 points of R@5; summing the whole space is exact up to this bound
FULLTEXT_TOTAL_LIMIT = 200_000
K1, B = 1.2, 0.75  # Lucene's BM25Similarity defaults
MAX_QUERY_WORDS = 64  # as bm25_query: the first 64 words of a question
_WORD = re.compile(r"[^\W_]+")  # alphanumeric runs: what bm25_query keeps of a question


def words(text: str | None) -> list[str]:
    return _WORD.findall(text.casefold()) if text else []


class _Field:
    """One field of every passage: its lengths and, per term, the passages holding it and how often
    (postings, ascending passage order)."""

    def __init__(self, docs: list[list[str]], vocabulary: dict[str, int]) -> None:
        self.lengths = np.asarray([len(t) for t in docs], dtype=np.float64)
        present = self.lengths > 0  # Lucene counts a field's N and length over the docs that have it
        self.n = int(present.sum())
        average = self.lengths[present].mean() if self.n else 1.0
        self.norm = K1 * (1 - B + B * self.lengths / average)  # per document
        ids = [vocabulary.setdefault(token, len(vocabulary)) for tokens in docs for token in tokens]
        rows = np.repeat(np.arange(len(docs), dtype=np.int64), [len(t) for t in docs])
        pairs, tf = np.unique(np.asarray(ids, dtype=np.int64) * max(len(docs), 1) + rows, return_counts=True)
        self.rows, self.tf = pairs % max(len(docs), 1), tf.astype(np.float64)  # by term, then passage
        self.starts = np.searchsorted(pairs // max(len(docs), 1), np.arange(len(vocabulary) + 1))

    def add(self, scores: np.ndarray, term: int, count: int) -> None:
        """Adds `count` times the term's BM25 weight idf(t) * tf / (tf + k1 (1 - b + b dl / avgdl))."""
        if term + 1 >= len(self.starts):
            return  # a term of another field only
        lo, hi = self.starts[term], self.starts[term + 1]
        if hi == lo:
            return
        rows, tf, df = self.rows[lo:hi], self.tf[lo:hi], hi - lo
        idf = np.log1p((self.n - df + 0.5) / (df + 0.5))
        scores[rows] += count * (idf * tf / (tf + self.norm[rows]))


class Bm25Index:
    """The passages of one space, ranked for a question by BM25 with the space's own statistics.

    numpy only (no scipy: a one-shot query builds one too, and importing scipy cost it ~140 ms). The
    score of a passage is summed in one fixed order, term by term (by first appearance in the space),
    text then title, so the same space and question give the same floats in every process."""

    def __init__(self, passages: Sequence[PassageMatch]) -> None:
        self.passages = sorted(passages, key=lambda p: p.id)  # ties go to the lower id
        self.vocabulary: dict[str, int] = {}
        self.fields = [_Field([words(p.text) for p in self.passages], self.vocabulary),
                       _Field([words(p.title) for p in self.passages], self.vocabulary)]

    def __len__(self) -> int:
        return len(self.passages)

    def scores(self, question: str) -> np.ndarray:
        """Each passage's BM25 score for the question (0 when it has none of its words); a repeated
        word counts again, as in Lucene's `w1 OR w2 ...`."""
        counts: dict[int, int] = {}
        for word in words(question)[:MAX_QUERY_WORDS]:
            if (term := self.vocabulary.get(word)) is not None:
                counts[term] = counts.get(term, 0) + 1
        scores = np.zeros(len(self.passages))
        for term in sorted(counts):
            for f in self.fields:
                f.add(scores, term, counts[term])
        return scores

    def search(self, question: str, k: int) -> list[PassageMatch]:
        scores = self.scores(question)
        rows = top_rows(scores, scores > 0, k)
        hits = [(self.passages[i], float(scores[i])) for i in rows]
        return [PassageMatch(p.id, score, p.title, p.text) for p, score in hits]


def bm25_query(text: str) -> str:
    """A Lucene query from words only: nothing of the user's text is parsed as syntax."""
    return " OR ".join(words(text)[:MAX_QUERY_WORDS]) or "*"


@dataclass(frozen=True)
class Bm25Hits:
    passages: list[PassageMatch]  # best first
    total: float  # summed score of every passage of the space (in process exactly, through Lucene up to a bound)


class SpaceBm25:
    """BM25 of one space, shared by the bm25 method and memgraphrag's fusion: the in-process index at
    the memory's current version (built once per version), or the Lucene index for spaces of more than
    MAX_IN_PROCESS_PASSAGES passages and for callers that ask for no in-process copy."""

    def __init__(self, search: SearchRepository, version: Callable[[], int],
                 counts: Callable[[int], SpaceCounts]) -> None:
        self.search, self.version, self.counts = search, version, counts
        self._index: tuple[int, Bm25Index | None] | None = None
        self.builds = 0  # observable: tests assert one build per memory version

    def index(self, version: int | None = None) -> Bm25Index | None:
        """`version`: the memory version the caller already read (else it is read)."""
        version = self.version() if version is None else version
        if self._index is None or self._index[0] != version:
            self._index = None  # the old one can go before the new one is read
            index = None
            if self.counts(version).passages <= MAX_IN_PROCESS_PASSAGES:
                index = Bm25Index(self.search.corpus())
                self.builds += 1
            self._index = (version, index)
        return self._index[1]

    def top(self, question: str, k: int, version: int | None = None, total: bool = False) -> Bm25Hits:
        """The k best passages; `total`: also sum every passage's score (through Lucene: in the same read)."""
        index = self.index(version)
        if index is not None:
            scores = index.scores(question)
            rows = top_rows(scores, scores > 0, k)
            return Bm25Hits([PassageMatch(index.passages[i].id, float(scores[i]), index.passages[i].title,
                                          index.passages[i].text) for i in rows], float(scores.sum()))
        query = bm25_query(question)
        if not total:
            hits = self.search.fulltext(query, k, k * FULLTEXT_FETCH_PER_RESULT)
            return Bm25Hits(hits, sum(h.score for h in hits))
        hits, space_total = self.search.fulltext_with_total(query, k, k * FULLTEXT_FETCH_PER_RESULT,
                                                            FULLTEXT_TOTAL_LIMIT)
        return Bm25Hits(hits, max(sum(h.score for h in hits), space_total))
