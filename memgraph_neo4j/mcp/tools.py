"""The five MCP tools, on the `MemoryGraph` facade of the space a call names.

Each is a plain function of typed arguments (their annotations are the tools' input schemas) returning a
pydantic model (the output schema). They run on worker threads; `SpacePool.use` confines and serialises.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from memgraph_neo4j.contracts import ConflictStatus
from memgraph_neo4j.mcp.documents import memory_input
from memgraph_neo4j.mcp.models import (
    ConflictList,
    ConflictOutput,
    EntityResult,
    FactResult,
    PassageResult,
    ProvenanceOutput,
    ResolveOutput,
    SearchOutput,
    Source,
    Turn,
    WriteOutput,
)
from memgraph_neo4j.mcp.spaces import SpacePool
from memgraph_neo4j.retrieval import SEARCH_METHODS

Space = Annotated[str | None, Field(description="Memory space; one this server serves (default: its first space)")]
Method = Literal[SEARCH_METHODS]  # every method MemoryGraph.search takes
Status = Literal[tuple(str(s) for s in ConflictStatus)]
Action = Literal["accept", "reject", "revert"]
EVIDENCE_PER_HIT = 3  # evidence passages listed per fact in search results


class MemoryTools:
    def __init__(self, pool: SpacePool) -> None:
        self.pool = pool

    def search_memory(
        self,
        query: Annotated[str, Field(min_length=1, description="A question or keywords")],
        space: Space = None,
        top_k: Annotated[int, Field(ge=1, le=50, description="Passages to return")] = 5,
        method: Annotated[Method, Field(description="memgraphrag (graph + PageRank, default), hipporag2, "
                                                    "dense (embeddings only), bm25 (keywords only); for "
                                                    "conversation memory: hybrid (System-1: vectors + "
                                                    "keywords over messages, entities, facts, fused), "
                                                    "hybrid-context / hybrid-expand / hybrid-ppr (System-1 "
                                                    "expanded), dual (System-1 + the model's walk of the "
                                                    "category hierarchy)")]
        = "memgraphrag",
        as_of: Annotated[str | None, Field(description="A date or time (e.g. 2023-05-08): the facts valid then "
                                                       "and the messages said by then (hybrid methods and dual)")]
        = None,
    ) -> SearchOutput:
        with self.pool.use(space, must_exist=True) as memory:
            result = memory.search(query, method=method, top_k=top_k, as_of=as_of)
            sources = memory.passage_sources([h.id for h in result.passages])
            facts = memory.provenances([f.id for f in result.facts], passages=EVIDENCE_PER_HIT, chars=0)
        passages = []
        for hit in result.passages:
            found = sources.get(hit.id)
            cited = Source.of(found, hit.name) if found else Source(passage_id=hit.id, title=hit.name)
            passages.append(PassageResult(**cited.model_dump(), score=hit.score, text=hit.text))
        return SearchOutput(
            space=memory.space, method=result.method, query=query, passages=passages,
            facts=[FactResult(id=f.id, text=f.text, score=f.score,
                              state=facts[f.id].state if f.id in facts else None,
                              evidence=[Source.of(p) for p in facts[f.id].evidence] if f.id in facts else [])
                   for f in result.facts],
            entities=[EntityResult(id=e.id, name=e.name, score=e.score) for e in result.entities],
            fallback=result.fallback, timings_ms=result.timings_ms)

    def write_memory(
        self,
        text: Annotated[str | None, Field(description="Text to remember (a note, a document, a message)")] = None,
        turns: Annotated[list[Turn] | None, Field(description="A conversation to remember instead of text: "
                                                              "[{speaker, text, time?}, ...]")] = None,
        title: Annotated[str | None, Field(description="Title of the document (default: none for a text, "
                                                       "the conversation's speakers for turns)")] = None,
        space: Space = None,
    ) -> WriteOutput:
        document, conversation = memory_input(text, turns, title)
        with self.pool.use(space) as memory:  # turns: episodes, as the API's ingest_conversations writes them
            report = (memory.ingest_conversations([conversation]) if conversation is not None
                      else memory.ingest([document], progress=False))
        return WriteOutput(space=memory.space, doc_id=document.id, title=document.title, passages=report.passages,
                           passages_new=report.passages_new, facts=report.facts, entities_new=report.entities_new,
                           promoted=report.promoted, activated=report.activated, conflicts=report.conflicts,
                           conflicts_to_review=report.conflicts_to_review, seconds=round(report.seconds, 3),
                           stopped=report.stopped)

    def get_provenance(
        self,
        fact_id: Annotated[str, Field(min_length=1, description="A fact id from search_memory or list_conflicts "
                                                                          "(or a unique prefix of it, 6+ characters)")],
        space: Space = None,
        passages: Annotated[int, Field(ge=1, le=100, description="Evidence passages to return at most")] = 10,
    ) -> ProvenanceOutput:
        with self.pool.use(space) as memory:
            return ProvenanceOutput.of(memory.space, memory.provenance(fact_id, passages))

    def list_conflicts(
        self,
        space: Space = None,
        status: Annotated[Status | None, Field(description="Only conflicts in this status (needs_review: "
                                                           "waiting for a decision; obsolete: a fact it "
                                                           "involved was retracted)")] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="At most this many, newest first")] = 20,
    ) -> ConflictList:
        with self.pool.use(space) as memory:
            rows = memory.conflicts.list(status, limit)
            details = [memory.conflicts.show(row.id) for row in rows]
        return ConflictList(space=memory.space, conflicts=[ConflictOutput.of(d) for d in details])

    def resolve_conflict(
        self,
        conflict_id: Annotated[str, Field(min_length=1, description="A conflict id from list_conflicts (or a "
                                                                              "unique prefix of it, 6+ characters)")],
        action: Annotated[Action, Field(description="accept: apply the proposed verdicts, or with `keep` keep "
                                                    "that fact and discard the others; reject: not a conflict, "
                                                    "undo and dismiss; revert: restore the facts exactly")],
        keep: Annotated[str | None, Field(description="With accept: the fact to keep (id or unique prefix, "
                                                                "6+ characters)")]
        = None,
        space: Space = None,
    ) -> ResolveOutput:
        if keep is not None and action != "accept":
            raise ValueError(f"keep goes with action 'accept', not {action!r}")
        with self.pool.use(space) as memory:
            review = memory.conflicts
            detail = review.accept(conflict_id, keep) if action == "accept" else getattr(review, action)(conflict_id)
        return ResolveOutput(space=memory.space, action=action, conflict=ConflictOutput.of(detail))
