"""Documents and passages of one memory space: what is stored, the passage layer, extraction marks,
token usage per document and the memory version (cypher/memory/*).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from memgraph_neo4j.contracts import ExtractionState
from memgraph_neo4j.repository.base import BATCH, Repository

PASSAGE_BATCH = 500  # passages carry text and an embedding each


@dataclass(frozen=True)
class DocumentRow:
    id: str
    title: str | None
    source: str | None
    chars: int
    metadata: str | None  # JSON


@dataclass
class PassageRow:
    id: str
    doc_id: str
    index: int
    title: str | None
    text: str
    start: int  # character offsets into the document
    end: int
    embedding: list[float] | None = None
    page: int | None = None  # first and last page of a paged document (PDF), 1-based
    page_end: int | None = None
    heading: str | None = None  # heading path, outermost first, joined by " > "

    @property
    def embedding_text(self) -> str:
        return f"{self.title}\n{self.text}" if self.title else self.text


@dataclass(frozen=True)
class ExtractionMark:
    """What the extraction of one passage came to; a failed one keeps its error for the retry."""

    passage_id: str
    state: ExtractionState
    error: str | None
    attempts: int
    extractor: str
    model: str | None


@dataclass
class DocumentUsage:
    doc_id: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0


class PassageRepository(Repository):
    def existing_passages(self, ids: list[str]) -> dict[str, ExtractionState]:
        """Stored passages among `ids` and the state of their extraction."""
        rows = self.store.read("memory/existing_passages", space=self.space, ids=ids)
        return {r["id"]: ExtractionState(r["extraction"] or ExtractionState.PENDING) for r in rows}

    def write_documents(self, rows: list[DocumentRow]) -> None:
        self._write_rows("memory/write_documents", rows)

    def write_passages(self, rows: list[PassageRow]) -> None:
        """Passages (new ones start `pending`), then NEXT between consecutive passages of a document."""
        self._write_rows("memory/write_passages", rows, PASSAGE_BATCH, pending=ExtractionState.PENDING.value)
        links = [{"from": a.id, "to": b.id} for a, b in pairwise(rows) if a.doc_id == b.doc_id]
        self.store.write_batched("memory/link_next", links, batch_size=BATCH, space=self.space)

    def mark_extraction(self, marks: list[ExtractionMark]) -> None:
        self._write_rows("memory/mark_extraction", marks)

    def record_usage(self, usage: list[DocumentUsage]) -> None:
        """Adds to the tokens and cost already recorded on each document."""
        self._write_rows("memory/record_usage", usage)

    def bump_version(self) -> int:
        """A new memory version: projections and snapshots of the old one are stale."""
        return self.store.write("memory/bump_version", space=self.space)[0]["version"]
