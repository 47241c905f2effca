"""LangChain (langchain-core): a `BaseRetriever` of `Document`s and the memory's tools as `BaseTool`s.

    from memgraph_neo4j.adapters.langchain import MemoryRetriever, memory_tools
    retriever = MemoryRetriever(memory=memory, top_k=3)      # memory: a MemoryGraph
    docs = retriever.invoke("Where was Ada Lovelace born?")  # page_content: the passage; metadata: recall.py
    tools = memory_tools(memory)  # search_memory, write_memory, get_provenance, list_conflicts
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memgraph_neo4j.adapters.recall import FACTS_PER_PASSAGE, Recalled, recall
from memgraph_neo4j.validation import check_text_or_turns

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
except ImportError as exc:
    raise ImportError("memgraph_neo4j.adapters.langchain needs langchain-core: "
                      "pip install 'memgraph-neo4j[langchain]'") from exc

SOURCE = "langchain"  # the source of the documents write_memory writes
STATUSES = ("open", "resolved", "dismissed", "needs_review", "obsolete")  # contracts.ConflictStatus


def as_document(found: Recalled) -> Document:
    return Document(page_content=found.text, metadata=found.metadata, id=found.id)


class MemoryRetriever(BaseRetriever):
    """The passages `MemoryGraph.search` finds, as `Document`s: `page_content` is the passage, `metadata` its
    document, title, page, heading, score, method and the facts it evidences with their states and conflicts.
    `method`, `top_k` and `as_of` (a date: the facts valid then; hybrid methods) also per call:
    `retriever.invoke(query, as_of="2023-06-01", top_k=3)`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Any = Field(description="The MemoryGraph of the space to search")
    method: str = "memgraphrag"
    top_k: int = 5
    as_of: Any = None
    facts: int = FACTS_PER_PASSAGE

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                method: str | None = None, top_k: int | None = None, as_of: Any = None
                                ) -> list[Document]:
        return [as_document(found) for found in recall(
            self.memory, query, method or self.method, top_k or self.top_k,
            as_of if as_of is not None else self.as_of, self.facts)]


class Turn(BaseModel):
    speaker: str = Field(min_length=1, description="Who spoke, e.g. 'user', 'assistant' or a name")
    text: str = Field(min_length=1, description="What was said")
    time: str | None = Field(None, description="When: ISO 8601 or a date as written, optional")


class SearchArgs(BaseModel):
    query: str = Field(min_length=1, description="A question or keywords")
    top_k: int = Field(5, ge=1, le=50, description="Passages to return")
    as_of: str | None = Field(None, description="A date: search the facts valid then (conversation memory)")


class WriteArgs(BaseModel):
    text: str | None = Field(None, description="Text to remember (a note, a document, a message)")
    turns: list[Turn] | None = Field(None, description="A conversation to remember instead: [{speaker, text, time?}]")
    title: str | None = Field(None, description="Title of the document, or name of the conversation")


class ProvenanceArgs(BaseModel):
    fact_id: str = Field(min_length=1, description="A fact id from search_memory or list_conflicts (or 6+ "
                                                   "characters of it)")


class ConflictArgs(BaseModel):
    status: Literal[STATUSES] | None = Field(None, description="Only conflicts in this status (needs_review: "
                                                               "waiting for a decision)")
    limit: int = Field(20, ge=1, le=100, description="At most this many, newest first")


def memory_tools(memory: Any, method: str = "memgraphrag", as_of_method: str = "hybrid",
                 facts: int = FACTS_PER_PASSAGE) -> list[BaseTool]:
    """search_memory, write_memory, get_provenance and list_conflicts on one MemoryGraph. Each returns text for
    the model and its structured result as the tool message's artifact (search_memory: the `Document`s).
    A search with `as_of` runs `as_of_method` (a hybrid method: the facts valid then)."""

    def search_memory(query: str, top_k: int = 5, as_of: str | None = None) -> tuple[str, list[Document]]:
        found = _tool_call(lambda: recall(memory, query, as_of_method if as_of else method, top_k, as_of, facts))
        return "\n\n".join(f.context() for f in found) or "nothing found", [as_document(f) for f in found]

    def write_memory(text: str | None = None, turns: list[Turn] | None = None,
                     title: str | None = None) -> tuple[str, dict]:
        report = _tool_call(lambda: write(memory, text, turns, title))
        said = (f"remembered {report['title']!r} (document {report['doc_id']}): {report['passages_new']} new "
                f"passages, {report['facts']} facts, {report['conflicts']} conflicts found "
                f"({report['conflicts_to_review']} to review)")
        return said, report

    def get_provenance(fact_id: str) -> tuple[str, dict]:
        found = _tool_call(lambda: memory.provenance(fact_id, passages=10))
        lines = [f"fact {found.id}: {found.text} [{found.state}]",
                 *(f"- evidence: passage {p.passage_id} of {p.doc_title or p.doc_id}: {p.text or ''}"
                   for p in found.evidence),
                 *(f"- conflict {c['id']} ({c['type']}, {c['status']}): {c['proposed'] or 'no verdict'}"
                   f"{' (applied)' if c['applied'] else ''}" for c in found.conflicts)]
        return "\n".join(lines), {"id": found.id, "text": found.text, "state": found.state,
                                  "head": found.head, "relation": found.relation, "tail": found.tail,
                                  "documents": found.documents, "evidence_count": found.evidence_count,
                                  "evidence": [{"passage_id": p.passage_id, "doc_id": p.doc_id, "title": p.title,
                                                "document": p.doc_title, "text": p.text} for p in found.evidence],
                                  "conflicts": found.conflicts}

    def list_conflicts(status: str | None = None, limit: int = 20) -> tuple[str, list[dict]]:
        details = _tool_call(lambda: [memory.conflicts.show(row.id) for row in memory.conflicts.list(status, limit)])
        listed = [{"id": d.id, "type": d.type, "status": d.status, "reason": d.reason,
                   "facts": [{k: f.get(k) for k in ("id", "text", "state", "proposed", "applied")} for f in d.facts]}
                  for d in details]
        lines = [f"conflict {c['id']} ({c['type']}, {c['status']}): " + "; ".join(
            f"{f['text']} [{f['state']}{', ' + f['proposed'] if f['proposed'] else ''}] (fact {f['id']})"
            for f in c["facts"]) for c in listed]
        return "\n".join(lines) or "no conflicts", listed

    described = (
        (search_memory, SearchArgs, "Search the memory: the best passages, each with its citation, passage id and "
                                    "the facts it supports (their states and conflicts)."),
        (write_memory, WriteArgs, "Remember a text or a conversation (turns); the same text twice adds nothing."),
        (get_provenance, ProvenanceArgs, "Where a fact comes from: its evidence passages and documents, its state "
                                         "and its conflicts."),
        (list_conflicts, ConflictArgs, "Conflicts between facts, newest first, with each fact's state and verdict."),
    )
    return [StructuredTool.from_function(func, name=func.__name__, description=description, args_schema=schema,
                                         response_format="content_and_artifact", handle_tool_error=True,
                                         handle_validation_error=True)
            for func, schema, description in described]


def write(memory: Any, text: str | None, turns: list[Turn] | list[dict] | None, title: str | None) -> dict:
    """A text as one document (source "langchain"), or turns as one conversation of episodes: the write's report."""
    check_text_or_turns(text, turns)
    if text is not None:
        from memgraph_neo4j.ingest.document import Document as MemoryDocument  # the facade's input type

        # no title unless given, as MCP's write_memory: the offline extractor reads a passage's title as one name
        # wherever the text says it, so a first line as title lost that line's facts (the parity test found it)
        title = (title or "").strip()
        document = MemoryDocument(title=title, text=text.strip(), source=SOURCE)
        report = memory.ingest([document], progress=False)
        doc_id = document.id
    else:
        records = [t.model_dump(exclude_none=True) if isinstance(t, BaseModel) else dict(t) for t in turns]
        name = (title or "").strip() or "chat"
        report = memory.ingest_conversations([{**r, "conversation": name} for r in records])
        title, doc_id = name, None
    return {"title": title, "doc_id": doc_id, **report.model_dump(include={
        "passages", "passages_new", "facts", "entities_new", "conflicts", "conflicts_to_review", "stopped"})}


# The remedies of the facade's refusals (validation.SurfaceError) in the words of these tools
REMEDIES = {
    "list_conflicts": "list_conflicts returns the conflict ids",
    "list_facts": "search_memory and list_conflicts return fact ids",
    "list_documents": "write_memory and search_memory return document ids (doc_id)",
    "chat_model": "no chat model is configured: search with another method",
}


def _tool_call(call):
    """Errors the model can act on (an unknown id, bad input) come back to it as the tool's answer."""
    try:
        return call()
    except (ValueError, LookupError) as exc:
        worded = getattr(exc, "worded", None)  # a SurfaceError: its remedy named as these tools
        raise ToolException(worded(REMEDIES) if worded else str(exc)) from exc
