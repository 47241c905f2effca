"""Contracts between the ingest pipeline, the memory and the extractors."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from memgraph_neo4j.agents.models import Extraction


class ExtractionInput(BaseModel):
    """One chunk to extract from."""

    passage_id: str
    doc_id: str
    text: str
    title: str | None = None


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0  # in the configured currency; 0 when no price is configured

    def __add__(self, other: Usage) -> Usage:
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens,
                     cost=self.cost + other.cost)


class ExtractionOutcome(BaseModel):
    """What the extractor made of one chunk: an Extraction, or an error (never silently dropped)."""

    passage_id: str
    doc_id: str
    extraction: Extraction | None = None
    error: str | None = None
    attempts: int = 1
    usage: Usage = Field(default_factory=Usage)
    extractor: str  # "openai" | "langchain" | "offline" | "openie"
    model: str | None = None
    prompt_version: str | None = None

    @property
    def ok(self) -> bool:
        return self.extraction is not None and self.error is None


class KnownSchema(BaseModel):
    head_type: str
    relation: str
    tail_type: str
    frequency: int = 0


class KnownEntity(BaseModel):
    name: str  # canonical name
    type: str
    aliases: list[str] = Field(default_factory=list)


@runtime_checkable
class MemoryGuide(Protocol):
    """What the memory tells the extraction agent before each chunk (memory-guided extraction)."""

    def stable_schemas(self, limit: int = 50) -> list[KnownSchema]:
        """Stable schemas, most frequent first."""
        ...

    def known_entities(self, text: str, limit: int = 30) -> list[KnownEntity]:
        """Canonical entities already in memory that this text mentions."""
        ...


class NoGuide:
    """An empty memory (first chunk, or guidance switched off)."""

    def stable_schemas(self, limit: int = 50) -> list[KnownSchema]:
        return []

    def known_entities(self, text: str, limit: int = 30) -> list[KnownEntity]:
        return []


@runtime_checkable
class Extractor(Protocol):
    name: str

    def extract(self, items: list[ExtractionInput], guide: MemoryGuide) -> list[ExtractionOutcome]:
        """One outcome per input, in input order."""
        ...
