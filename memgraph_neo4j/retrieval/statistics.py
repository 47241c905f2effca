"""What the seed formulas need besides the hits: passages per entity, entities per type, the
entities of each hit passage and the number of passages (IDF, hub suppression, density).

`StatisticsSnapshot` holds them for a whole space at one memory version (one read per version,
cypher/retrieval/export_statistics), so seeding a query costs no round trip; `from_query_rows`
reads them for one query's hits (cypher/retrieval/seed_statistics), for spaces too large to hold.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable

from memgraph_neo4j.retrieval.seeds import SeedStatistics


def from_query_rows(row: dict, passage_ids: Iterable[str]) -> SeedStatistics:
    """SeedStatistics from cypher/retrieval/seed_statistics (one query's hits)."""
    total = max(row["passages"], 1)
    stats = SeedStatistics(row["passages"], {e: n for e, n in row["entity_passages"]},
                           {t: n for t, n in row["type_degree"]}, {p: [] for p in passage_ids})
    for pid, eid, df in row["passage_mentions"]:
        stats.passage_entities[pid].append(eid)
        stats.idf[eid] = math.log(total / max(df, 1))
    return stats


class StatisticsSnapshot:
    """The seed statistics of a whole space, read once (cypher/retrieval/export_statistics)."""

    def __init__(self, row: dict) -> None:
        self.passages = row["passages"]
        self.entities_of: dict[str, list[str]] = defaultdict(list)
        for pid, eid in zip(row["mention_passages"], row["mention_entities"], strict=True):
            self.entities_of[pid].append(eid)
        self.df = Counter(row["mention_entities"])
        self.type_degree = {t: n for t, n in row["type_degree"]}

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
