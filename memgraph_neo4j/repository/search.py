"""The plain searches retrieval runs: dense and BM25 passages, passage texts, facts of entities."""

from __future__ import annotations

from collections.abc import Sequence

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.repository.base import Repository
from memgraph_neo4j.repository.layers import PassageMatch


def _passages(rows: list[dict]) -> list[PassageMatch]:
    return [PassageMatch(r["id"], r["score"], r["title"], r["text"]) for r in rows]


class SearchRepository(Repository):
    def dense(self, vector: list[float], k: int, fetch: int) -> list[PassageMatch]:
        return _passages(self.store.read("retrieval/passage_vector", space=self.space, vector=vector, k=k,
                                         fetch=fetch))

    def fulltext(self, query: str, k: int, fetch: int) -> list[PassageMatch]:
        """`query` is Lucene syntax: build it with retrieval.bm25.bm25_query, never from raw user text."""
        return _passages(self.store.read("retrieval/passage_fulltext", space=self.space, query=query, k=k,
                                         fetch=fetch))

    def passage_texts(self, ids: Sequence[str]) -> dict[str, str | None]:
        return {r["id"]: r["text"] for r in self.store.read("retrieval/passage_texts", space=self.space,
                                                            ids=list(ids))}

    def facts_of(self, entity_ids: Sequence[str], limit: int,
                 states: Sequence[str] = (FactState.ACTIVE,)) -> list[str]:
        """Texts of the facts (active by default) with one of these entities as subject or object."""
        rows = self.store.read("retrieval/entity_facts", space=self.space, entity_ids=list(entity_ids),
                               states=[str(s) for s in states], limit=limit)
        return [r["text"] for r in rows]
