"""The one interface every retrieval method implements, and what they return."""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field


class Hit(BaseModel):
    id: str
    name: str | None = None
    score: float
    text: str | None = None


class RetrievalResult(BaseModel):
    method: str
    passages: list[Hit]
    entities: list[Hit] = Field(default_factory=list)
    facts: list[Hit] = Field(default_factory=list)  # the facts that seeded PPR
    schemas: list[Hit] = Field(default_factory=list)  # the schemas that seeded PPR
    fallback: bool = False  # no fact/schema passed the thresholds: dense passages were returned
    timings_ms: dict[str, float] = Field(default_factory=dict)


@runtime_checkable
class Retriever(Protocol):
    """One retrieval method over one memory space (dense, bm25, hipporag2, memgraphrag)."""

    method: str

    def search(self, question: str, top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        """The top_k passages (graph methods: also the top_m entities and the hits that seeded them),
        with per-stage timings in milliseconds."""
        ...


class StageTimer:
    """Milliseconds per named stage; a stage named twice adds up."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._t = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = self.laps.get(name, 0.0) + (now - self._t) * 1000
        self._t = now

    def rounded(self) -> dict[str, float]:
        return {k: round(v, 2) for k, v in self.laps.items()}
