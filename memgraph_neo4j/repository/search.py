"""The plain searches retrieval runs: dense and BM25 passages, passage texts and provenance, facts of entities."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.repository.base import Repository
from memgraph_neo4j.repository.conversation import _native
from memgraph_neo4j.repository.layers import MemoryState, PassageMatch

MAX_FULLTEXT_FETCH = 1 << 20  # most fulltext hits asked for: the widening stops there


@dataclass(frozen=True, slots=True)
class PassageDetail:
    text: str | None
    page: int | None  # first and last page (paged documents), else None
    page_end: int | None
    heading: str | None  # heading path where it starts, else None
    sections: str | None = None  # JSON: where its page or heading changes (PassageRow.sections)
    speaker: str | None = None  # episodes: who said it, and when
    time: datetime | None = None


@dataclass(frozen=True, slots=True)
class QuestionNames:
    keyed: bool  # every titled passage of the space has its title key: `titles` is complete
    entities: dict[str, list[str]]  # alias key -> entity ids
    titles: dict[str, list[str]]  # title key -> passage ids


def _passages(rows: list[dict]) -> list[PassageMatch]:
    return [PassageMatch(r["id"], r["score"], r["title"], r["text"]) for r in rows]


class SearchRepository(Repository):
    def dense(self, vector: list[float], k: int, fetch: int) -> list[PassageMatch]:
        return _passages(self.store.read("retrieval/passage_vector", space=self.space, vector=vector, k=k,
                                         fetch=fetch))

    def fulltext(self, query: str, k: int, fetch: int) -> list[PassageMatch]:
        """BM25 top-k of the space from the shared Lucene index: `fetch` hits, then 8 times more while
        other spaces' hits left fewer than k of this one and the index holds more. `query` is Lucene
        syntax: build it with retrieval.bm25.bm25_query, never from raw user text."""
        return self._widened(query, k, fetch, None)[0]

    def fulltext_with_total(self, query: str, k: int, fetch: int, limit: int) -> tuple[list[PassageMatch], float]:
        """`fulltext`, and the summed BM25 score of the space's passages among the index's first `limit`
        hits for `query`, read with its first fetch."""
        return self._widened(query, k, fetch, limit)

    def _widened(self, query: str, k: int, fetch: int, limit: int | None) -> tuple[list[PassageMatch], float]:
        if limit is None:
            row = self._fulltext(query, k, fetch)
        else:
            row = self.store.read("retrieval/passage_fulltext_with_total", space=self.space, query=query, k=k,
                                  fetch=fetch, limit=limit)[0]
        total = float(row.get("total") or 0.0)
        while len(row["hits"]) < k and row["scanned"] >= fetch and fetch < MAX_FULLTEXT_FETCH:
            fetch = min(fetch * 8, MAX_FULLTEXT_FETCH)
            row = self._fulltext(query, k, fetch)
        return _passages(row["hits"]), total

    def _fulltext(self, query: str, k: int, fetch: int) -> dict:
        return self.store.read("retrieval/passage_fulltext", space=self.space, query=query, k=k, fetch=fetch)[0]

    def state_and_names(self, graph_prefix: str, entity_keys: Sequence[str],
                        title_keys: Sequence[str]) -> tuple[MemoryState, QuestionNames]:
        """The memory state (version, this space's projections named `graph_prefix`...) and what the
        question names, in one read (cypher/retrieval/memory_state_names): entity ids stored under each
        alias key and passage ids by title key (keys with none are left out; passages of one title by
        id). `keyed` False: the space's title keys are incomplete, so no title was sought (match
        `passage_titles` instead)."""
        row = self.store.read("retrieval/memory_state_names", space=self.space, prefix=graph_prefix,
                              entity_keys=list(entity_keys), title_keys=list(title_keys))[0]
        return (MemoryState(row["version"], tuple(row["graphs"])),
                QuestionNames(row["keyed"], dict(row["entities"]), dict(row["titles"])))

    def passage_titles(self) -> list[tuple[str, str]]:
        """(id, title) of every titled passage of the space, by id."""
        return [(r["id"], r["title"]) for r in self.store.read("retrieval/passage_titles", space=self.space)]

    def corpus(self) -> list[PassageMatch]:
        """Every passage of the space (score 0), by id: the in-process BM25 ranking is built from them."""
        return [PassageMatch(r["id"], 0.0, r["title"], r["text"])
                for r in self.store.read("retrieval/passage_corpus", space=self.space)]

    def passage_details(self, ids: Sequence[str]) -> dict[str, PassageDetail]:
        """Text and provenance of each passage, by id."""
        rows = self.store.read("retrieval/passage_texts", space=self.space, ids=list(ids))
        return {r["id"]: PassageDetail(r["text"], r["page"], r["page_end"], r["heading"], r["sections"], r["speaker"],
                                       _native(r["time"])) for r in rows}

    def facts_of(self, entity_ids: Sequence[str], limit: int,
                 states: Sequence[str] = (FactState.ACTIVE,)) -> list[str]:
        """Texts of the facts (active by default) with one of these entities as subject or object."""
        rows = self.store.read("retrieval/entity_facts", space=self.space, entity_ids=list(entity_ids),
                               states=[str(s) for s in states], limit=limit)
        return [r["text"] for r in rows]
