"""Counts per label and state, failed chunks and token usage of one memory space (cypher/stats/*)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from memgraph_neo4j.contracts import ExtractionState, Usage
from memgraph_neo4j.repository.base import Repository


class LabelCount(BaseModel):
    total: int = 0
    by_state: dict[str, int] = Field(default_factory=dict)  # only labels that have states


class FailedChunk(BaseModel):
    passage_id: str
    doc_id: str | None
    error: str | None
    attempts: int | None


class MemoryStats(BaseModel):
    space: str
    nodes: dict[str, LabelCount]
    relationships: dict[str, int]
    failed_chunks: list[FailedChunk]
    usage: Usage


class StatsRepository(Repository):
    def exists(self) -> bool:
        """The space holds something (one index probe, not the counts)."""
        return self.store.read("stats/space_exists", space=self.space)[0]["exists"]

    def memory_stats(self, failed_limit: int = 100) -> MemoryStats:
        labels: dict[str, LabelCount] = {}
        for row in self.store.read("stats/node_counts", space=self.space):
            entry = labels.setdefault(row["label"], LabelCount())
            entry.total += row["count"]
            if row["state"] is not None:
                entry.by_state[row["state"]] = entry.by_state.get(row["state"], 0) + row["count"]
        relationships = {r["type"]: r["count"] for r in self.store.read("stats/relationship_counts", space=self.space)}
        failed = self.store.read("stats/failed_chunks", space=self.space, limit=failed_limit,
                                 failed=ExtractionState.FAILED.value)
        usage = self.store.read("stats/usage", space=self.space)[0]
        return MemoryStats(space=self.space, nodes=labels, relationships=relationships,
                           failed_chunks=[FailedChunk(**r) for r in failed], usage=Usage(**usage))
