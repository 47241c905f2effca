"""BM25 passage retrieval through the Lucene fulltext index."""

from __future__ import annotations

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.base import StageTimer
from memgraph_neo4j.retrieval.dense import FETCH_PER_RESULT, PassageIndexRetriever


def bm25_query(text: str) -> str:
    """A Lucene query from words only: nothing of the user's text is parsed as syntax."""
    words = "".join(c if c.isalnum() else " " for c in text).split()
    return " OR ".join(words[:64]) or "*"


class BM25Retriever(PassageIndexRetriever):
    method = "bm25"

    def passages(self, question: str, top_k: int, timer: StageTimer) -> list[PassageMatch]:
        matches = self.context.search.fulltext(bm25_query(question), top_k, top_k * FETCH_PER_RESULT)
        timer.lap("search")
        return matches
