"""What the MCP tools return (their output schemas) and the conversation turn they accept; every model is
built from the facade's results, so the wire shape is defined here only."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from memgraph_neo4j.repository.conflicts import ConflictDetail
from memgraph_neo4j.repository.provenance import FactProvenance, PassageSource


class Turn(BaseModel):
    """One turn of a conversation: a record of the chat format (ingest/episodes.py), stored as an Episode."""

    speaker: str = Field(min_length=1, description="Who spoke, e.g. 'user', 'assistant' or a name")
    text: str = Field(min_length=1, description="What was said")
    time: str | None = Field(None, description="When: ISO 8601 or a date as written ('1:56 pm on 8 May, 2023'), "
                                               "optional")


class Source(BaseModel):
    """A passage and the document it belongs to: what a result cites."""

    passage_id: str
    title: str | None = None
    doc_id: str | None = None
    doc_title: str | None = None
    source: str | None = Field(None, description="Where the document came from (a file path, 'mcp', 'text')")

    @classmethod
    def of(cls, found: PassageSource, name: str | None = None) -> Source:
        """`name`: the hit's, for a passage without a title (an episode: speaker and time)."""
        return cls(passage_id=found.passage_id, title=found.title or name, doc_id=found.doc_id,
                   doc_title=found.doc_title, source=found.source)


class EvidencePassage(Source):
    text: str | None = None


class PassageResult(Source):
    score: float
    text: str | None = None


class FactResult(BaseModel):
    id: str = Field(description="Fact id: pass it to get_provenance")
    text: str | None
    score: float
    state: str | None = None
    evidence: list[Source] = Field(default_factory=list, description="Passages the fact was extracted from")


class EntityResult(BaseModel):
    id: str
    name: str | None
    score: float


class SearchOutput(BaseModel):
    space: str
    method: str
    query: str
    passages: list[PassageResult] = Field(description="Best passages first, with their documents")
    facts: list[FactResult] = Field(description="Facts that matched the query (they seeded the graph search)")
    entities: list[EntityResult] = Field(description="Most relevant entities (PageRank), best first")
    fallback: bool = Field(description="True when no fact was close enough and plain dense search answered")
    timings_ms: dict[str, float]


class WriteOutput(BaseModel):
    space: str
    doc_id: str = Field(description="Content hash of the text: writing the same text again changes nothing")
    title: str
    passages: int
    passages_new: int
    facts: int = Field(description="Facts extracted from the new passages")
    entities_new: int
    promoted: int = Field(description="Schemas that became stable")
    activated: int = Field(description="Facts that became active")
    conflicts: int = Field(description="Conflicts found among the newly active facts")
    conflicts_to_review: int
    seconds: float
    stopped: str = Field("done", description="Why the write ended: done, budget (chunks left pending), failures "
                                             "(some chunks failed; writing it again retries them) or interrupted")


class SchemaInfo(BaseModel):
    id: str
    head_type: str | None = None
    relation: str | None = None
    tail_type: str | None = None
    state: str | None = Field(None, description="candidate, or stable once promoted")
    frequency: int | None = Field(None, description="Distinct passages supporting the schema's facts")
    declared: bool | None = Field(None, description="Declared in the ontology")


class ConflictRef(BaseModel):
    id: str
    type: str | None = None
    status: str | None = None
    proposed: str | None = Field(None, description="The verdict proposed for this fact")
    applied: bool = False


class ProvenanceOutput(BaseModel):
    space: str
    id: str
    text: str
    head: str
    relation: str
    tail: str
    time: str | None
    state: str = Field(description="pending, active, or a verdict: discarded, superseded, contradicted")
    checked: bool = Field(description="Adjudication has checked the fact for conflicts")
    qualifiers: dict[str, str] = Field(description="valid_from / valid_to / ordinal, when set")
    instance_of: SchemaInfo | None = Field(description="The schema the fact instantiates")
    entities: list[dict[str, Any]] = Field(description="Subject and object: role, id, name, type")
    lineage: dict[str, Any] = Field(description="Extractor, model, prompt and ontology versions, created_at")
    documents: list[str] = Field(description="Ids of the documents the evidence comes from")
    evidence_count: int
    evidence: list[EvidencePassage]
    conflicts: list[ConflictRef] = Field(description="Conflicts involving the fact, with its verdict")

    @classmethod
    def of(cls, space: str, found: FactProvenance) -> ProvenanceOutput:
        return cls(space=space, id=found.id, text=found.text, head=found.head, relation=found.relation,
                   tail=found.tail, time=found.time, state=found.state, checked=found.checked,
                   qualifiers=found.qualifiers, instance_of=SchemaInfo(**found.schema) if found.schema else None,
                   entities=found.entities, lineage=found.lineage, documents=found.documents,
                   evidence_count=found.evidence_count,
                   evidence=[EvidencePassage(**Source.of(p).model_dump(), text=p.text) for p in found.evidence],
                   conflicts=[ConflictRef(**c) for c in found.conflicts])


class ConflictFact(BaseModel):
    id: str
    text: str | None
    state: str | None
    relation: str | None = None
    proposed: str | None = Field(None, description="Verdict proposed for this fact (keep, discard, merge, ...)")
    applied: bool = False
    evidence: list[str] = Field(default_factory=list, description="Evidence passage ids")


class ConflictOutput(BaseModel):
    id: str
    type: str = Field(description="mutual_exclusion, temporal, granularity or duplicate")
    status: str = Field(description="open, resolved, dismissed or needs_review")
    confidence: float | None
    reason: str | None
    rationale: str | None
    model: str | None
    detected_at: str | None
    resolved_at: str | None
    facts: list[ConflictFact]

    @classmethod
    def of(cls, detail: ConflictDetail) -> ConflictOutput:
        return cls(id=detail.id, type=detail.type, status=detail.status, confidence=detail.confidence,
                   reason=detail.reason, rationale=detail.rationale, model=detail.model,
                   detected_at=detail.detected_at, resolved_at=detail.resolved_at,
                   facts=[ConflictFact(**{k: f.get(k) for k in ConflictFact.model_fields if k in f})
                          for f in detail.facts])


class ConflictList(BaseModel):
    space: str
    conflicts: list[ConflictOutput] = Field(description="Newest first")


class ResolveOutput(BaseModel):
    space: str
    action: str
    conflict: ConflictOutput
