"""BM25 over the passages of one space, exact and in process.

The Lucene fulltext index is shared by all spaces, so its IDF and average lengths count every space's
passages: a space's BM25 ranking moved when another space was built. This ranks with the space's own
statistics instead: built once from the space's passages (cypher/retrieval/passage_corpus), then kept
up to date from the passages a write adds, replaces or removes (`Bm25Index.apply`), at the cost of
what changed rather than of the corpus; an updated index scores exactly as one built afresh.
It scores as the Lucene query `w1 OR w2 ...` over the `text` and `title` fields did: Lucene's BM25
(k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), no (k1 + 1) factor), per field with
that field's N and average length, summed over fields and over the query's words (a repeated word
counts again). Words are the same alphanumeric runs `bm25_query` sends, case-folded, for passages and
queries alike; Lucene's standard tokenizer differs on a few forms (it keeps "3.5" or "don't" whole)
and stores lengths in one byte, so scores are close to Lucene's, not equal.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memgraph_neo4j.repository.changes import ChangeRepository, Changes
from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.repository.statistics import SpaceCounts
from memgraph_neo4j.retrieval.changes import ChangeFeed, Followed
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


def _id(p: PassageMatch) -> str:
    return p.id


def _grow(array: np.ndarray, row: int) -> np.ndarray:
    """`array` with room for `row` (doubling: appends cost O(1) amortised)."""
    if row < len(array):
        return array
    return np.concatenate([array, np.zeros(max(16, len(array)), dtype=array.dtype)])


class _Field:
    """One field of every row: its lengths, N and total length over the alive rows that have it, and
    per term the rows holding it and how often. Base postings (arrays by term, then row) cover the rows
    of the last build; rows added since are the overlay, in dicts (few: compaction folds them in)."""

    def __init__(self, docs: list[list[str]], vocabulary: dict[str, int]) -> None:
        lengths = [len(t) for t in docs]
        self.lengths = np.asarray(lengths, dtype=np.int64)
        self.n = int(np.count_nonzero(self.lengths))  # Lucene counts N and lengths over the docs with the field
        self.total = int(self.lengths.sum())  # integers: the average is one division, whatever the history
        m = max(len(docs), 1)
        ids = [vocabulary.setdefault(token, len(vocabulary)) for tokens in docs for token in tokens]
        rows = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
        pairs, tf = np.unique(np.asarray(ids, dtype=np.int64) * m + rows, return_counts=True)
        self._set_base(pairs, m, tf.astype(np.float64), len(vocabulary))

    def _set_base(self, keys: np.ndarray, m: int, tf: np.ndarray, n_terms: int) -> None:
        self.rows, self.tf = keys % m, tf  # keys: term * m + row, ascending
        self.starts = np.searchsorted(keys // m, np.arange(n_terms + 1))
        self.overlay: dict[int, dict[int, int]] = {}  # term -> {overlay row: tf}
        self.counts: dict[int, dict[int, int]] = {}  # alive overlay row -> {term: tf}, to take it out
        self._arrays: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # overlay postings as arrays, per term
        self._norm: np.ndarray | None = None  # per row; recomputed once after a change of the average

    def append(self, row: int, length: int, counts: dict[int, int]) -> None:
        """Adds an overlay row of `length` words, `counts`: tf by term."""
        self.lengths = _grow(self.lengths, row)
        self.lengths[row] = length
        if length:
            self.n, self.total, self._norm = self.n + 1, self.total + length, None
        self.counts[row] = counts
        for term, tf in counts.items():
            self.overlay.setdefault(term, {})[row] = tf
            self._arrays.pop(term, None)

    def remove(self, row: int) -> None:
        if length := int(self.lengths[row]):
            self.n, self.total, self._norm = self.n - 1, self.total - length, None
        for term in self.counts.pop(row, ()):  # an overlay row's postings go; a base row is masked instead
            postings = self.overlay[term]
            del postings[row]
            if not postings:
                del self.overlay[term]
            self._arrays.pop(term, None)

    def postings(self, term: int) -> list[tuple[np.ndarray, np.ndarray]]:
        parts = []
        if term + 1 < len(self.starts) and (lo := self.starts[term]) < (hi := self.starts[term + 1]):
            parts.append((self.rows[lo:hi], self.tf[lo:hi]))
        if term in self.overlay:
            if term not in self._arrays:
                rows = self.overlay[term]
                self._arrays[term] = (np.fromiter(rows.keys(), np.int64, len(rows)),
                                      np.fromiter(rows.values(), np.float64, len(rows)))
            parts.append(self._arrays[term])
        return parts

    def add(self, scores: np.ndarray, term: int, count: int, alive: np.ndarray | None) -> None:
        """Adds `count` times the term's BM25 weight idf(t) * tf / (tf + k1 (1 - b + b dl / avgdl));
        `alive`: the rows to count in df, None when all are (dead rows get a score the caller drops)."""
        parts = self.postings(term)
        df = sum(len(r) if alive is None else int(np.count_nonzero(alive[r])) for r, _ in parts)
        if df == 0:
            return
        if self._norm is None:
            self._norm = K1 * (1 - B + B * self.lengths / (self.total / self.n))
        idf = np.log1p((self.n - df + 0.5) / (df + 0.5))
        for rows, tf in parts:  # base and overlay rows are disjoint: each row's sum keeps its order
            scores[rows] += count * (idf * tf / (tf + self._norm[rows]))

    def compact(self, order: np.ndarray, new_row: np.ndarray, n_terms: int) -> None:
        """Base postings of the alive rows `order` (id order), renumbered by `new_row`, overlay folded in."""
        m = max(len(order), 1)
        terms = np.repeat(np.arange(len(self.starts) - 1, dtype=np.int64), np.diff(self.starts))
        rows = new_row[self.rows]
        keep = rows >= 0
        keys, tf = terms[keep] * m + rows[keep], self.tf[keep]  # still ascending: renumbering keeps id order
        extra = [(term * m + int(new_row[row]), count) for row, counts in self.counts.items()
                 for term, count in counts.items()]
        if extra:
            more = np.asarray(extra, dtype=np.int64)
            more = more[np.argsort(more[:, 0])]
            at = np.searchsorted(keys, more[:, 0])
            keys, tf = np.insert(keys, at, more[:, 0]), np.insert(tf, at, more[:, 1].astype(np.float64))
        self.lengths = self.lengths[order]
        self._set_base(keys, m, tf, n_terms)


class Bm25Index:
    """The passages of one space, ranked for a question by BM25 with the space's own statistics.

    numpy only (no scipy: a one-shot query builds one too, and importing scipy cost it ~140 ms). The
    score of a passage is summed in one fixed order, by word (sorted), text then title, so the same
    passages and question give the same floats in every process and whatever the updates that led
    there. Rows: the passages of the last build in id order, then those `apply` added; `passages` and
    `scores` are in id order over the alive ones, so ties go to the lower id."""

    # Compaction when rows added or removed since the build exceed this share of it: dead rows are still
    # scored and overlay postings cost a few Python steps per query term, so the query stays within ~10 %
    # of a fresh index's; compaction costs about the build's numpy part (no database, no tokenising),
    # amortised over >= 10 % of the passages: O(1) per changed passage
    COMPACT_FRACTION = 0.1
    COMPACT_MIN = 64  # rows: small spaces compact rarely (at their size it costs little anyway)

    def __init__(self, passages: Sequence[PassageMatch]) -> None:
        self.passages = sorted(passages, key=_id)  # alive passages, id order (ids are unique)
        self.vocabulary: dict[str, int] = {}
        self.fields = [_Field([words(p.text) for p in self.passages], self.vocabulary),
                       _Field([words(p.title) for p in self.passages], self.vocabulary)]
        self._words = list(self.vocabulary)  # by term
        self._reset()

    def _reset(self) -> None:
        self._rows = list(self.passages)  # per row, dead ones too, until the next compaction
        self._row_of = {p.id: i for i, p in enumerate(self._rows)}  # alive rows
        self._base = len(self._rows)  # rows of the last build; those after are the overlay
        self._alive = np.ones(len(self._rows), dtype=bool)
        self._dead = 0  # dead base rows
        self._order: np.ndarray | None = None  # alive rows in id order; None: every row, unchanged

    def __len__(self) -> int:
        return len(self.passages)

    def _term(self, word: str) -> int:
        if (term := self.vocabulary.get(word)) is None:
            term = self.vocabulary[word] = len(self._words)
            self._words.append(word)
        return term

    def scores(self, question: str) -> np.ndarray:
        """Each passage's BM25 score for the question (0 when it has none of its words), aligned with
        `passages`; a repeated word counts again, as in Lucene's `w1 OR w2 ...`."""
        counts: dict[str, int] = {}
        for word in words(question)[:MAX_QUERY_WORDS]:
            if word in self.vocabulary:
                counts[word] = counts.get(word, 0) + 1
        scores = np.zeros(len(self._rows))
        alive = self._alive if self._dead else None
        for word in sorted(counts):  # not by term id: ids depend on the order passages came in
            for f in self.fields:
                f.add(scores, self.vocabulary[word], counts[word], alive)
        return scores if self._order is None else scores[self._order]

    def top(self, question: str, k: int) -> tuple[list[PassageMatch], float]:
        """The k best passages (ties: lower id first) and the summed score of every passage."""
        scores = self.scores(question)
        rows = top_rows(scores, scores > 0, k)  # positions in id order: ties go to the lower id
        hits = [(self.passages[i], float(scores[i])) for i in rows]
        return [PassageMatch(p.id, score, p.title, p.text) for p, score in hits], float(scores.sum())

    def search(self, question: str, k: int) -> list[PassageMatch]:
        return self.top(question, k)[0]

    def apply(self, upserts: Sequence[PassageMatch], removed: Iterable[str] = ()) -> None:
        """Upserts passages by id (a known id replaced, a new one added), then removes the ids `removed`
        (unknown ones ignored): afterwards it scores as `Bm25Index` of the resulting passages. Costs what
        changed (plus O(passages) of vectorised copies), or a compaction past COMPACT_FRACTION. Not safe
        beside a concurrent query: apply to a copy no query reads, or under the caller's lock."""
        gone: list[str] = []  # ids alive before that are not now
        added: dict[str, int] = {}  # id -> row, of rows added and still alive
        for p in upserts:
            self._kill(p.id, gone, added)
            added[p.id] = self._append(p)
        for pid in removed:
            self._kill(pid, gone, added)
        self._reorder(gone, added)
        if len(self._rows) - self._base + self._dead > max(self.COMPACT_MIN, self.COMPACT_FRACTION * self._base):
            self.compact()

    def _kill(self, pid: str, gone: list[str], added: dict[str, int]) -> None:
        if (row := self._row_of.pop(pid, None)) is None:
            return
        self._alive[row] = False
        for f in self.fields:
            f.remove(row)
        self._dead += row < self._base
        if added.pop(pid, None) is None:
            gone.append(pid)

    def _append(self, p: PassageMatch) -> int:
        row = len(self._rows)
        self._rows.append(p)
        self._row_of[p.id] = row
        self._alive = _grow(self._alive, row)
        self._alive[row] = True
        for f, text in zip(self.fields, (p.text, p.title)):
            tokens = words(text)
            f.append(row, len(tokens), {self._term(w): tf for w, tf in Counter(tokens).items()})
        return row

    def _reorder(self, gone: list[str], added: dict[str, int]) -> None:
        """`passages` and `_order` after an apply: out go `gone`, in (at their id's place) `added`."""
        if not gone and self._order is None and len(self._rows) == self._base:
            return  # nothing changed (a row added and removed again still leaves a dead row)
        order = np.arange(self._base, dtype=np.int64) if self._order is None else self._order
        if gone:
            order = order[self._alive[order]]
            for pid in gone:
                del self.passages[bisect_left(self.passages, pid, key=_id)]
        if added:
            ids = sorted(added)
            at = [bisect_left(self.passages, pid, key=_id) for pid in ids]
            order = np.insert(order, at, [added[pid] for pid in ids])
            for i, pid in zip(reversed(at), reversed(ids)):  # from the end: earlier places stay valid
                self.passages.insert(i, self._rows[added[pid]])
        self._order = order

    def compact(self) -> None:
        """Folds the overlay and the removed rows into new base postings, rows in id order again: the
        index a fresh build gives, from the held postings (no database read, no tokenising)."""
        order = np.arange(self._base, dtype=np.int64) if self._order is None else self._order
        new_row = np.full(len(self._rows), -1, dtype=np.int64)
        new_row[order] = np.arange(len(order))
        for f in self.fields:
            f.compact(order, new_row, len(self._words))
        self._reset()

    def canonical(self) -> dict[str, Any]:
        """What the scores depend on, by passage id and word: the passages, and per field N, the
        average length, each passage's length and per word its df and {passage id: tf}. An updated
        index and one built afresh from the same passages give equal ones."""
        out: dict[str, Any] = {"passages": [(p.id, p.title, p.text) for p in self.passages]}
        for name, f in zip(("text", "title"), self.fields):
            postings: dict[str, dict[str, int]] = {}
            terms = np.repeat(np.arange(len(f.starts) - 1), np.diff(f.starts))
            for term, row, tf in zip(terms.tolist(), f.rows.tolist(), f.tf.tolist()):
                if self._alive[row]:
                    postings.setdefault(self._words[term], {})[self._rows[row].id] = int(tf)
            for term, rows in f.overlay.items():
                for row, tf in rows.items():
                    postings.setdefault(self._words[term], {})[self._rows[row].id] = tf
            out[name] = {"n": f.n, "average": f.total / f.n if f.n else None,
                         "lengths": {p.id: int(f.lengths[self._row_of[p.id]]) for p in self.passages},
                         "terms": {w: (len(ids), ids) for w, ids in sorted(postings.items())}}
        return out


def bm25_query(text: str) -> str:
    """A Lucene query from words only: nothing of the user's text is parsed as syntax."""
    return " OR ".join(words(text)[:MAX_QUERY_WORDS]) or "*"


def apply_changes(index: Bm25Index, changes: Changes) -> None:
    """A write's passages (retrieval/changes.py), upserted, and those it deleted (a retraction's tombstones)."""
    index.apply([PassageMatch(p.id, 0.0, p.title, p.text) for p in changes.passages], changes.removed_passages)


@dataclass(frozen=True)
class Bm25Hits:
    passages: list[PassageMatch]  # best first
    total: float  # summed score of every passage of the space (in process exactly, through Lucene up to a bound)


class SpaceBm25:
    """BM25 of one space, shared by the bm25 method and memgraphrag's fusion: the in-process index at
    the memory's current version (built once per version), or the Lucene index for spaces of more than
    MAX_IN_PROCESS_PASSAGES passages and for callers that ask for no in-process copy."""

    def __init__(self, search: SearchRepository, version: Callable[[], int],
                 counts: Callable[[int], SpaceCounts], feed: ChangeFeed | None = None) -> None:
        self.search, self.version, self.counts = search, version, counts
        feed = feed or ChangeFeed(ChangeRepository(search.store, search.space), lambda: 0)
        self.copy: Followed[Bm25Index] = Followed(
            feed, lambda: Bm25Index(self.search.corpus()), apply_changes,
            lambda v: self.counts(v).passages <= MAX_IN_PROCESS_PASSAGES)

    @property
    def builds(self) -> int:
        return self.copy.builds  # observable: tests assert one build, then catch-ups

    def index(self, version: int | None = None) -> Bm25Index | None:
        """`version`: the memory version the caller already read (else it is read)."""
        return self.copy.at(self.version() if version is None else version)

    def top(self, question: str, k: int, version: int | None = None, total: bool = False) -> Bm25Hits:
        """The k best passages; `total`: also sum every passage's score (through Lucene: in the same read)."""
        with self.copy.hold():
            index = self.index(version)
            if index is not None:
                return Bm25Hits(*index.top(question, k))
        query = bm25_query(question)
        if not total:
            hits = self.search.fulltext(query, k, k * FULLTEXT_FETCH_PER_RESULT)
            return Bm25Hits(hits, sum(h.score for h in hits))
        hits, space_total = self.search.fulltext_with_total(query, k, k * FULLTEXT_FETCH_PER_RESULT,
                                                            FULLTEXT_TOTAL_LIMIT)
        return Bm25Hits(hits, max(sum(h.score for h in hits), space_total))
