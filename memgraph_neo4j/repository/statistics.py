"""Sizes of a space and the corpus statistics the PageRank seed formulas need, as typed rows."""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_neo4j.repository.base import Repository


@dataclass(frozen=True, slots=True)
class SpaceCounts:
    vectors: int  # facts + schemas + passages of the space
    passages: int
    mentions: int  # passage-entity mentions of the whole database (an upper bound for the space)
    located: int = 0  # passages with a page or heading, and episodes: hits with provenance to read


@dataclass(frozen=True, slots=True)
class SpaceMentions:
    """Every passage-entity mention of a space (parallel lists) and the entities per type."""

    passages: list[str]
    entities: list[str]
    type_degree: list[list]  # [type id, entities of that type]


@dataclass(frozen=True, slots=True)
class HitStatistics:
    """The statistics of one query's hits (cypher/retrieval/seed_statistics)."""

    entity_passages: list[list]  # [entity id, passages mentioning it]
    type_degree: list[list]  # [type id, entities of that type]
    passage_mentions: list[list]  # [passage id, entity id, passages mentioning that entity]


class StatisticsRepository(Repository):
    def counts(self) -> SpaceCounts:
        row = self.store.read("retrieval/space_counts", space=self.space)[0]
        return SpaceCounts(row["vectors"], row["passages"], row["mentions"], row["located"])

    def mentions(self) -> SpaceMentions:
        row = self.store.read("retrieval/export_statistics", space=self.space)[0]
        return SpaceMentions(row["mention_passages"], row["mention_entities"], row["type_degree"])

    def of_hits(self, entity_ids: list[str], type_ids: list[str], passage_ids: list[str]) -> HitStatistics:
        row = self.store.read("retrieval/seed_statistics", space=self.space, entity_ids=entity_ids,
                              type_ids=type_ids, passage_ids=passage_ids)[0]
        return HitStatistics(row["entity_passages"], row["type_degree"], row["passage_mentions"])
