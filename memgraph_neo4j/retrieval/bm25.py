"""BM25 passage retrieval: exact per space in process, or through the Lucene fulltext index.

A space of up to `bm25_index.MAX_IN_PROCESS_PASSAGES` passages is ranked with its own BM25 statistics
(retrieval/bm25_index.py), read once per memory version: other spaces change nothing. Larger spaces
use the Lucene index, which all spaces share: it widens until it has k hits of the space, but its IDF
counts every space's passages, so there other spaces still move the scores.
"""

from __future__ import annotations

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.base import StageTimer
from memgraph_neo4j.retrieval.bm25_index import Bm25Index, bm25_query
from memgraph_neo4j.retrieval.dense import PassageIndexRetriever

__all__ = ["BM25Retriever", "bm25_query"]  # the cap lives in bm25_index, beside the index it bounds


class BM25Retriever(PassageIndexRetriever):
    method = "bm25"

    @property
    def builds(self) -> int:
        return self.context.bm25.builds

    def index(self) -> Bm25Index | None:
        """The space's in-process BM25 at the memory's current version (built once per version, shared
        with memgraphrag's fusion), or None when the space has more than bm25_index.MAX_IN_PROCESS_PASSAGES passages."""
        return self.context.bm25.index()

    def passages(self, question: str, top_k: int, timer: StageTimer) -> list[PassageMatch]:
        matches = self.context.bm25.top(question, top_k).passages
        timer.lap("search")
        return matches
