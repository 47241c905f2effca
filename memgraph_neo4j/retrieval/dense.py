"""Dense passage retrieval: cosine top-k of the space from the Passage vector index (filtered inside it)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer
from memgraph_neo4j.retrieval.context import RetrievalContext

FETCH_PER_RESULT = 20  # hits asked per result: the HNSW search is approximate and searches wider for more


def passage_hits(matches: list[PassageMatch]) -> list[Hit]:
    return [Hit(id=m.id, name=m.title, score=m.score, text=m.text) for m in matches]


class PassageIndexRetriever(ABC):
    """A method that ranks passages with one index search (no entities, no seeds)."""

    method: str

    def __init__(self, context: RetrievalContext) -> None:
        self.context = context

    @abstractmethod
    def passages(self, question: str, top_k: int, timer: StageTimer) -> list[PassageMatch]: ...

    def search(self, question: str, top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        timer = StageTimer()
        hits = passage_hits(self.passages(question, top_k, timer))
        return self.context.finish(RetrievalResult(method=self.method, passages=hits), timer)


class DenseRetriever(PassageIndexRetriever):
    method = "dense"

    def passages(self, question: str, top_k: int, timer: StageTimer) -> list[PassageMatch]:
        vector = self.context.embed(question)
        timer.lap("embed")
        matches = self.context.search.dense(vector, top_k, top_k * FETCH_PER_RESULT)
        timer.lap("vector")
        return matches
