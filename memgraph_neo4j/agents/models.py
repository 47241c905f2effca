"""Typed output of the extraction agent (A_ext): what one chunk yields."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ExtractedEntity(BaseModel):
    name: str = Field(min_length=1, description="Surface name as written, or the canonical name if known")
    type: str = Field(default="Thing", description="Entity type, preferably one of the ontology's types")


class ExtractedFact(BaseModel):
    head: str = Field(min_length=1)
    relation: str = Field(min_length=1)
    tail: str = Field(min_length=1)
    head_type: str | None = None
    tail_type: str | None = None
    time: str | None = Field(default=None, description="Optional time qualifier (e.g. '1998', '2001-2005')")


class Extraction(BaseModel):
    """Entities and facts grounded in one passage."""

    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)
