"""BM25 passage retrieval: exact per space in process, or through the Lucene fulltext index.

A space of up to `MAX_IN_PROCESS_PASSAGES` passages is ranked with its own BM25 statistics
(retrieval/bm25_index.py), read once per memory version: other spaces change nothing. Larger spaces
use the Lucene index, which all spaces share: it widens until it has k hits of the space, but its IDF
counts every space's passages, so there other spaces still move the scores.
"""

from __future__ import annotations

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.base import StageTimer
from memgraph_neo4j.retrieval.bm25_index import Bm25Index
from memgraph_neo4j.retrieval.context import RetrievalContext
from memgraph_neo4j.retrieval.dense import FETCH_PER_RESULT, PassageIndexRetriever

# MuSiQue: ~2.5 KB held per passage (texts and term weights), ~8 KB at peak while building; its 1,890
# passages build in ~0.3 s, then a query takes < 1 ms
MAX_IN_PROCESS_PASSAGES = 100_000


def bm25_query(text: str) -> str:
    """A Lucene query from words only: nothing of the user's text is parsed as syntax."""
    words = "".join(c if c.isalnum() else " " for c in text).split()
    return " OR ".join(words[:64]) or "*"


class BM25Retriever(PassageIndexRetriever):
    method = "bm25"

    def __init__(self, context: RetrievalContext) -> None:
        super().__init__(context)
        self._index: tuple[int, Bm25Index | None] | None = None
        self.builds = 0  # observable: tests assert one build per memory version

    def index(self) -> Bm25Index | None:
        """The space's in-process BM25 at the memory's current version (built once per version), or
        None when the space has more than MAX_IN_PROCESS_PASSAGES passages."""
        version = self.context.layers.repository.version()
        if self._index is None or self._index[0] != version:
            self._index = None  # the old one can go before the new one is read
            index = None
            if self.context.layers.counts(version).passages <= MAX_IN_PROCESS_PASSAGES:
                index = Bm25Index(self.context.search.corpus())
                self.builds += 1
            self._index = (version, index)
        return self._index[1]

    def passages(self, question: str, top_k: int, timer: StageTimer) -> list[PassageMatch]:
        index = self.index()
        if index is not None:
            matches = index.search(question, top_k)
        else:
            matches = self.context.search.fulltext(bm25_query(question), top_k, top_k * FETCH_PER_RESULT)
        timer.lap("search")
        return matches
