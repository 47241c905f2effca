"""Conversation memory of one space: episodes (message passages) and their speakers, when facts were
valid, and the look-ups of System-1 hybrid search (cypher/conversation/*)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from memgraph_neo4j.repository.base import Repository
from memgraph_neo4j.repository.batch import WriteBatch

MAX_FULLTEXT_FETCH = 1 << 20  # most fulltext hits asked for: the widening stops there


@dataclass
class EpisodeRow:
    id: str  # the Passage id
    speaker: str | None
    session: str | None
    turn: str | None  # the source's message id ("D3:1"), else its index
    conversation: str | None
    time: datetime | None


@dataclass(frozen=True)
class SpeakerLink:
    id: str  # the Episode
    entity_id: str


@dataclass(frozen=True)
class ValidAt:
    id: str  # a Fact
    valid_at: datetime


@dataclass(frozen=True)
class EpisodeFact:
    id: str
    time: str | None  # the fact's time qualifier as extracted ("2019", "May 2023")
    said: datetime  # earliest episode that evidences it
    valid_at: datetime | None


@dataclass(frozen=True)
class Ranked:
    """One hit of a ranked list: an id, its text or name, and the list's own score."""

    id: str
    score: float
    text: str | None = None


@dataclass(frozen=True)
class TimedFact:
    id: str
    text: str
    relation: str
    head: str
    tail: str
    valid_at: datetime | None
    invalid_at: datetime | None


def _native(value):
    """neo4j.time.DateTime -> datetime in datetime.timezone.utc (other values unchanged). The driver
    reads zoned values with a pytz zone; written back as such they are stored as a named-zone datetime
    that did not compare equal to the same instant written with an offset, so every time this package
    writes is normalised to the offset form."""
    if not hasattr(value, "to_native"):
        return value
    native = value.to_native()
    return native.astimezone(UTC) if native.tzinfo is not None else native.replace(tzinfo=UTC)


class ConversationRepository(Repository):
    # ----- writes ------------------------------------------------------------------------------
    def write_episodes(self, rows: list[EpisodeRow]) -> None:
        self._write_rows("conversation/write_episodes", rows)

    def link_speakers(self, rows: list[SpeakerLink]) -> None:
        self._write_rows("conversation/link_speakers", rows)

    def episode_facts(self, episode_ids: Sequence[str]) -> list[EpisodeFact]:
        rows = self.store.read("conversation/episode_facts", space=self.space, ids=list(episode_ids))
        return [EpisodeFact(r["id"], r["time"], _native(r["said"]), _native(r["valid_at"])) for r in rows]

    def set_valid_at(self, rows: list[ValidAt]) -> None:
        self._write_rows("conversation/set_valid_at", rows)

    def invalidate_changed(self, relations: Sequence[str], states: Sequence[str]) -> int:
        """The functional-relation rule over time (see the statement); returns facts invalidated."""
        rows = self.store.write("conversation/invalidate_changed", space=self.space, relations=list(relations),
                                states=[str(s) for s in states], stamp=None)
        return rows[0]["invalidated"] if rows else 0

    # ----- the same, as statements of one stamped transaction (repository/batch.py) ----------------
    def add_episodes(self, batch: WriteBatch, rows: list[EpisodeRow], links: list[SpeakerLink]) -> None:
        batch.add_rows("conversation/write_episodes", rows)
        batch.add_rows("conversation/link_speakers", links)

    def add_validity(self, batch: WriteBatch, rows: list[ValidAt], relations: Sequence[str],
                     states: Sequence[str]) -> int:
        """valid_at, then the rule over time; returns the index of invalidate_changed's result."""
        batch.add_rows("conversation/set_valid_at", rows)
        return batch.add("conversation/invalidate_changed", relations=list(relations), states=[str(s) for s in states])

    # ----- reads -------------------------------------------------------------------------------
    def facts_as_of(self, as_of: datetime | None, states: Sequence[str], entity_ids: Sequence[str] | None = None,
                    relation: str | None = None, limit: int = 1000) -> list[TimedFact]:
        rows = self.store.read("conversation/facts_as_of", space=self.space, as_of=as_of,
                               states=[str(s) for s in states], relation=relation,
                               entity_ids=list(entity_ids) if entity_ids is not None else None, limit=limit)
        return [TimedFact(r["id"], r["text"], r["relation"], r["head"], r["tail"], _native(r["valid_at"]),
                          _native(r["invalid_at"])) for r in rows]

    def entity_vector(self, vector: list[float], k: int, fetch: int) -> list[Ranked]:
        rows = self.store.read("conversation/entity_vector", space=self.space, vector=vector, k=k, fetch=fetch)
        return [Ranked(r["id"], r["score"], r["name"]) for r in rows]

    def fact_vector(self, vector: list[float], k: int, fetch: int, states: Sequence[str],
                    as_of: datetime | None) -> list[Ranked]:
        rows = self.store.read("conversation/fact_vector", space=self.space, vector=vector, k=k, fetch=fetch,
                               states=[str(s) for s in states], as_of=as_of)
        return [Ranked(r["id"], r["score"], r["text"]) for r in rows]

    def _fulltext(self, name: str, key: str, k: int, fetch: int, **params) -> list[Ranked]:
        while True:
            row = self.store.read(name, space=self.space, k=k, fetch=fetch, **params)[0]
            if len(row["hits"]) >= k or row["scanned"] < fetch or fetch >= MAX_FULLTEXT_FETCH:
                return [Ranked(h["id"], h["score"], h[key]) for h in row["hits"]]
            fetch = min(fetch * 8, MAX_FULLTEXT_FETCH)

    def entity_fulltext(self, query: str, k: int, fetch: int) -> list[Ranked]:
        """`query` is Lucene syntax: build it with retrieval.bm25.bm25_query, never from raw user text."""
        return self._fulltext("conversation/entity_fulltext", "name", k, fetch, query=query)

    def fact_fulltext(self, query: str, k: int, fetch: int, states: Sequence[str],
                      as_of: datetime | None) -> list[Ranked]:
        return self._fulltext("conversation/fact_fulltext", "text", k, fetch, query=query,
                              states=[str(s) for s in states], as_of=as_of)

    def fact_passages(self, fact_ids: Sequence[str], per_fact: int) -> dict[str, list[str]]:
        rows = self.store.read("conversation/fact_passages", space=self.space, ids=list(fact_ids), per_fact=per_fact)
        return {r["id"]: r["passages"] for r in rows}

    def fact_entities(self, fact_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        rows = self.store.read("conversation/fact_entities", space=self.space, ids=list(fact_ids))
        return {r["id"]: (r["subject"], r["object"]) for r in rows}

    def entity_passages(self, entity_ids: Sequence[str], per_entity: int) -> dict[str, tuple[int, list[str]]]:
        """Per entity: how many passages mention it, and the first `per_entity` of them."""
        rows = self.store.read("conversation/entity_passages", space=self.space, ids=list(entity_ids),
                               per_entity=per_entity)
        return {r["id"]: (r["mentions"], r["passages"]) for r in rows}

    def fact_hop(self, entity_ids: Sequence[str], states: Sequence[str],
                 as_of: datetime | None) -> list[tuple[str, str, str]]:
        """(entity, fact, entity on the fact's other end) for each usable fact of the entities."""
        rows = self.store.read("conversation/fact_hop", space=self.space, ids=list(entity_ids),
                               states=[str(s) for s in states], as_of=as_of)
        return [(r["source"], r["fact"], r["target"]) for r in rows]

    def neighbours(self, ids: Sequence[str]) -> dict[str, tuple[str | None, str | None]]:
        """The passages before and after each one in its document (NEXT)."""
        rows = self.store.read("conversation/episode_neighbours", space=self.space, ids=list(ids))
        return {r["id"]: (r["before"], r["after"]) for r in rows}

    def episode_details(self, ids: Sequence[str]) -> dict[str, dict]:
        rows = self.store.read("conversation/episode_details", space=self.space, ids=list(ids))
        return {r["id"]: {**r, "time": _native(r["time"])} for r in rows}
