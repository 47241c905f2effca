"""Shared types at the bottom of the package: what extractors produce, what the memory tells them,
and the states a Schema, a Fact and a Passage's extraction can be in.

Every layer may import from here; this module imports nothing of the package. States are stored as
`state` / `extraction` properties and always reach Cypher as parameters (never as literals pasted
into a statement), so a rename happens here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

# --- states ------------------------------------------------------------------------------------


class SchemaState(StrEnum):
    """`candidate` until seen often enough, then `stable` (promotion, cypher/memory/promote_*)."""

    CANDIDATE = "candidate"
    STABLE = "stable"


class FactState(StrEnum):
    """`pending` while the schema is a candidate, `active` once it is stable; the rest are verdicts:
    the memory judged the fact wrong, outdated or in conflict (adjudication, or a strict ontology
    for undeclared schemas). Retrieval leaves verdicts out unless adjudication is switched off."""

    PENDING = "pending"
    ACTIVE = "active"
    DISCARDED = "discarded"
    SUPERSEDED = "superseded"
    CONTRADICTED = "contradicted"
    # every passage that evidenced it was retracted (memory/retract.py): kept, out of retrieval and
    # adjudication, back to pending when an ingest evidences it again (cypher/memory/write_facts)
    RETRACTED = "retracted"


FACT_VERDICTS = (FactState.DISCARDED, FactState.SUPERSEDED, FactState.CONTRADICTED)
# The facts whose passages are a schema's support (its frequency, promotion's measure), passed as
# $supporting to every statement that counts it: a verdict that judges a fact wrong (discarded,
# contradicted) takes its passages away as a retraction does; superseded stays (an outdated value, or a
# merged duplicate, still evidences that the relation is real).
SUPPORTING = (FactState.PENDING, FactState.ACTIVE, FactState.SUPERSEDED)


def supporting() -> list[str]:
    """SUPPORTING as the $supporting parameter."""
    return [str(s) for s in SUPPORTING]


class ExtractionState(StrEnum):
    """Per passage: `pending` until extracted (or skipped by the budget), `ok`, or `failed`."""

    PENDING = "pending"
    OK = "ok"
    FAILED = "failed"


class StopReason(StrEnum):
    """Why an ingest run ended (`IngestReport.stopped`): every chunk done, the budget spent (the rest stay
    pending), done but some chunks failed (kept as failed), or interrupted (Ctrl-C, SIGTERM). The next
    ingest of the same input extracts what is left."""

    DONE = "done"
    BUDGET = "budget"
    FAILURES = "failures"
    INTERRUPTED = "interrupted"


class ConflictType(StrEnum):
    """What kind of conflict two facts are in (paper §4.2.2)."""

    MUTUAL_EXCLUSION = "mutual_exclusion"  # both cannot hold: one value wins
    TEMPORAL = "temporal"  # both held, at different times
    GRANULARITY = "granularity"  # both hold at different levels (a city and its country)
    DUPLICATE = "duplicate"  # the same fact twice
    NONE = "none"


class ConflictStatus(StrEnum):
    OPEN = "open"  # detected, not yet resolved
    RESOLVED = "resolved"  # verdicts applied
    DISMISSED = "dismissed"  # no conflict after all (a person rejected it, or its verdicts were reverted)
    NEEDS_REVIEW = "needs_review"  # no rule or model was sure enough: a person decides
    OBSOLETE = "obsolete"  # a fact it involved was retracted: its verdicts were undone (memory/retract.py)


class Review(StrEnum):
    """A person's last decision on a conflict (adjudication/review.py): detection never overrides it, and a
    conflict a retraction made obsolete comes back as the person left it when its facts are ingested again."""

    ACCEPTED = "accepted"  # verdicts applied by a person (proposed ones, or --keep)
    REJECTED = "rejected"  # dismissed: no conflict
    REVERTED = "reverted"  # verdicts undone: waits for review


class Verdict(StrEnum):
    """What resolution does to one fact of a conflict."""

    KEEP = "keep"
    DISCARD = "discard"  # state discarded: the other value won
    MERGE = "merge"  # a duplicate: its evidence moves to the kept fact, its state becomes superseded
    QUALIFY = "qualify"  # valid_from / valid_to / ordinal set: both stand
    REFINE = "refine"  # a more specific relation (born_in -> born_in_city): both stand


@dataclass(frozen=True)
class ConsistencyRules:
    """The ontology's declarations conflict detection runs on (Ontology.consistency_rules())."""

    functional: list[str]
    inverse_functional: list[str]
    inverse_pairs: list[list[str]]  # [relation, its inverse]; symmetric relations left out
    temporal: list[str]
    containment: list[str]


def fact_states(schema_filter: bool, adjudication: bool = True) -> list[str]:
    """Fact states retrieval uses: active only under the schema filter, verdicts only without adjudication."""
    states = [FactState.ACTIVE] if schema_filter else [FactState.ACTIVE, FactState.PENDING]
    return [str(s) for s in (states if adjudication else [*states, *FACT_VERDICTS])]


def schema_states(schema_filter: bool) -> list[str]:
    return [str(s) for s in ([SchemaState.STABLE] if schema_filter else [SchemaState.STABLE, SchemaState.CANDIDATE])]


# --- what an extractor yields (the extraction prompt's reply model) -----------------------------


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


class ExtractionInput(BaseModel):
    """One chunk to extract from."""

    passage_id: str
    doc_id: str
    text: str
    title: str | None = None
    # where a section (a heading) starts inside the chunk, as char offsets into `text`: references
    # ("she", "the company") resolve within their own section only
    scopes: list[int] = []
    # a conversation message: who said it, and the conversation's other participants ("I" is the
    # speaker; "you" the one other participant, when there is exactly one)
    speaker: str | None = None
    listeners: list[str] = []
    said_at: datetime | None = None  # when the message was said (its facts hold from then, unless dated)


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0  # in the configured currency; 0 when no price is configured

    def __add__(self, other: Usage) -> Usage:
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens,
                     cost=self.cost + other.cost)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


BUDGET_SKIP = "skipped: budget"  # error prefix of chunks never sent because the budget ran out


class ExtractionOutcome(BaseModel):
    """What the extractor made of one chunk: an Extraction, or an error (never silently dropped)."""

    passage_id: str
    doc_id: str
    title: str | None = None  # the passage's title (evidence for a similarity merge: memory/resolve.py)
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

    @property
    def skipped(self) -> bool:
        """Never sent: the budget ran out first. The passage stays pending for the next ingest."""
        return bool(self.error and self.error.startswith(BUDGET_SKIP))

    @property
    def passage_state(self) -> ExtractionState:
        if self.ok:
            return ExtractionState.OK
        return ExtractionState.PENDING if self.skipped else ExtractionState.FAILED


class AdjudicationReport(BaseModel):
    """What one conflict scan did (adjudication/adjudicator.py)."""

    scanned: int = 0  # newly active facts checked
    candidates: int = 0  # (fact, candidate) pairs compared
    dismissed: int = 0  # pairs classified as no conflict (or merged with their mirror pair)
    conflicts: int = 0  # Conflict nodes written (connected groups)
    resolved: int = 0
    needs_review: int = 0
    by_type: dict[str, int] = Field(default_factory=dict)
    verdicts: dict[str, int] = Field(default_factory=dict)  # applied verdicts per kind
    usage: Usage = Field(default_factory=Usage)
    seconds: float = 0.0


@runtime_checkable
class ConsistencyChecker(Protocol):
    """Checks the facts that became active (the ingest pipeline calls it after every promotion)."""

    def run(self, rescan_all: bool = False, progress: bool = False) -> AdjudicationReport: ...


# --- what the memory tells an extractor ---------------------------------------------------------


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

    def estimate(self, items: list[ExtractionInput], guide: MemoryGuide) -> Usage:
        """Expected usage without extracting (dry run); zero for extractors that call no model."""
        ...
