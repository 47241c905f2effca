"""What the seed formulas need besides the hits: passages per entity, entities per type, the
entities of each hit passage and the number of passages (IDF, hub suppression, density).

`StatisticsSnapshot` holds them for a whole space at one memory version (one read per version,
cypher/retrieval/export_statistics), so seeding a query costs no round trip; `from_hit_statistics`
reads them for one query's hits (cypher/retrieval/seed_statistics), for spaces too large to hold.
`SeedStatisticsSource` picks between the two, per memory version.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable

from memgraph_neo4j.repository.changes import ChangeRepository, Changes
from memgraph_neo4j.repository.statistics import HitStatistics, SpaceCounts, SpaceMentions, StatisticsRepository
from memgraph_neo4j.retrieval.changes import ChangeFeed, Followed
from memgraph_neo4j.retrieval.seeds import SeedStatistics


def from_hit_statistics(row: HitStatistics, passages: int, passage_ids: Iterable[str]) -> SeedStatistics:
    """SeedStatistics from one query's hits (cypher/retrieval/seed_statistics)."""
    total = max(passages, 1)
    stats = SeedStatistics(passages, {e: n for e, n in row.entity_passages},
                           {t: n for t, n in row.type_degree}, {p: [] for p in passage_ids})
    for pid, eid, df in row.passage_mentions:
        stats.passage_entities[pid].append(eid)
        stats.idf[eid] = math.log(total / max(df, 1))
    return stats


class StatisticsSnapshot:
    """The seed statistics of a whole space, read once (cypher/retrieval/export_statistics)."""

    def __init__(self, mentions: SpaceMentions, passages: int) -> None:
        self.passages = passages
        self.entities_of: dict[str, list[str]] = defaultdict(list)
        for pid, eid in zip(mentions.passages, mentions.entities, strict=True):
            self.entities_of[pid].append(eid)
        self.df = Counter(mentions.entities)
        self.type_degree = {t: n for t, n in mentions.type_degree}

    def apply(self, changes: Changes) -> None:
        """A write's passages (their mentions now; a deleted one's leave), its entities' types and the
        types it stamped (their degree now: a retraction stamps those of the entities it deletes)."""
        for passage_id in changes.removed_passages:
            self._forget(passage_id)
            self.entities_of.pop(passage_id, None)
        for p in changes.passages:
            self._forget(p.id)
            self.entities_of[p.id] = list(p.mentions)
            self.df.update(p.mentions)
        for e in changes.entities:
            self.type_degree.update(e.type_degree)
        self.type_degree.update(changes.type_degree)

    def _forget(self, passage_id: str) -> None:
        """The passage's mentions leave the entities' passage counts."""
        for e in self.entities_of.get(passage_id, ()):
            self.df[e] -= 1
            if not self.df[e]:
                del self.df[e]

    def lookup(self, entity_ids: Iterable[str], type_ids: Iterable[str], passage_ids: Iterable[str]) -> SeedStatistics:
        total = max(self.passages, 1)
        passage_ids = list(passage_ids)
        stats = SeedStatistics(self.passages, {e: self.df.get(e, 0) for e in entity_ids},
                               {t: self.type_degree.get(t, 0) for t in type_ids},
                               {p: list(self.entities_of.get(p, ())) for p in passage_ids})
        for p in passage_ids:
            for e in stats.passage_entities[p]:
                stats.idf[e] = math.log(total / max(self.df[e], 1))
        return stats


class SpaceCountsCache:
    """The space's sizes at a memory version: read whole (cypher/retrieval/space_counts, a count of the
    space's facts, schemas and passages: 15-40 ms on MuSiQue, ~70 ms at x3, per version), then followed
    through the change feed: the counts at version v plus the nodes created since v (`created` stamps),
    which the feed reads for the copies anyway, minus the passages deleted since that existed at v (their
    tombstones keep `created`). Read whole again when the feed has no complete changes (an unstamped
    write), a stamped passage existed before (its provenance, hence `located`, may have moved) or a node
    was deleted twice since (whether it existed at v is not known)."""

    def __init__(self, repository: StatisticsRepository, feed: ChangeFeed | None = None) -> None:
        self.repository, self.feed = repository, feed
        self._counts: tuple[int, SpaceCounts] | None = None
        self.reads = 0  # observable: tests assert the counts are followed, not read again

    def __call__(self, version: int) -> SpaceCounts:
        held = self._counts
        if held is not None and held[0] >= version:  # as the copies: this version or a later one
            return held[1]
        if held is not None and held[0] < version and self.feed is not None:
            changes = self.feed.since(held[0], version)
            if (changes is not None and not changes.passages_rewritten and not changes.deleted_twice
                    and changes.mentions is not None):
                c, gone = held[1], changes.gone_passages
                counts = SpaceCounts(
                    c.vectors + changes.new_facts + changes.new_schemas + changes.new_passages - gone,
                    c.passages + changes.new_passages - gone, changes.mentions,
                    c.located + changes.new_located - changes.gone_located)
                self._counts = (max(version, changes.version), counts)
                return counts
        self._counts = (version, self.repository.counts())
        self.reads += 1
        return self._counts[1]

    def latest(self) -> SpaceCounts | None:
        """The sizes last read (None before the first read)."""
        counts = self._counts
        return None if counts is None else counts[1]


class SeedStatisticsSource:
    """Seed statistics from a snapshot read once per memory version; for spaces with more mentions
    than `max_mentions`, read per query (a snapshot would not fit in memory)."""

    def __init__(self, repository: StatisticsRepository, counts: SpaceCountsCache, max_mentions: int,
                 feed: ChangeFeed | None = None) -> None:
        self.repository, self.counts, self.max_mentions = repository, counts, max_mentions
        feed = feed or ChangeFeed(ChangeRepository(repository.store, repository.space), lambda: 0)
        self.copy: Followed[StatisticsSnapshot] = Followed(
            feed, lambda: StatisticsSnapshot(self.repository.mentions(), 0), StatisticsSnapshot.apply,
            lambda v: self.counts(v).mentions <= self.max_mentions)

    def lookup(self, version: int, entity_ids: list[str], type_ids: list[str],
               passage_ids: list[str]) -> SeedStatistics:
        counts = self.counts(version)
        with self.copy.hold():
            snapshot = self.copy.at(version)
            if snapshot is not None:
                snapshot.passages = counts.passages  # the N of IDF at this version (space_counts)
                return snapshot.lookup(entity_ids, type_ids, passage_ids)
        return from_hit_statistics(self.repository.of_hits(entity_ids, type_ids, passage_ids), counts.passages,
                                   passage_ids)
