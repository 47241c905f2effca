"""Documents and passages of one memory space: what is stored, the passage layer, extraction marks,
token usage per document and the memory version (cypher/memory/*).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memgraph_neo4j.contracts import ExtractionState
from memgraph_neo4j.repository.base import BATCH, Repository
from memgraph_neo4j.repository.batch import WriteBatch
from memgraph_neo4j.store import GraphStore

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
    heading: str | None = None  # heading path where the passage starts, outermost first, joined by " > "
    # JSON [[offset into the text, page, heading], ...]: where the passage changes page or heading (None if never)
    sections: str | None = None
    scopes: list[int] = field(default_factory=list)  # offsets where a heading starts: for the extraction only
    previous: str | None = None  # id of the passage before it in its document (the NEXT link)
    title_key: str | None = None  # the title normalised as alias keys are (set by the writer)

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


# Document.status, from the extraction states of its passages (memory/mark_documents)
DOCUMENT_STATES = dict(ingesting="ingesting", partial="partial", done="done",
                       pending=ExtractionState.PENDING.value, failed=ExtractionState.FAILED.value)


def next_links(rows: list[PassageRow]) -> list[dict[str, str]]:
    """NEXT links ending at these passages: from `previous` when known (also when the passage before is
    stored already: a resumed ingest), else from the row before it of the same document."""
    links = []
    for i, row in enumerate(rows):
        before = row.previous
        if before is None and i and rows[i - 1].doc_id == row.doc_id and rows[i - 1].index == row.index - 1:
            before = rows[i - 1].id
        if before is not None:
            links.append({"from": before, "to": row.id})
    return links


class PassageRepository(Repository):
    def existing_passages(self, ids: list[str]) -> dict[str, ExtractionState]:
        """Stored passages among `ids` and the state of their extraction."""
        rows = self.store.read("memory/existing_passages", space=self.space, ids=ids)
        return {r["id"]: ExtractionState(r["extraction"] or ExtractionState.PENDING) for r in rows}

    def write_passages(self, rows: list[PassageRow], documents: list[DocumentRow] = ()) -> list[int]:
        """Documents, then passages (new ones start `pending`) with the NEXT links that end at them, one
        stamped transaction per PASSAGE_BATCH passages (the documents go with the first): a kill between
        two leaves no passage without its document or its link. Returns the memory versions made, in order.
        Documents alone (their passages stored already) are written without a new version: retrieval holds
        nothing of them."""
        if not rows:
            self._write_rows("memory/write_documents", documents)
            return []
        versions: list[int] = []
        for start in range(0, len(rows), PASSAGE_BATCH):
            batch = WriteBatch(self.store, self.space, stamped=True)  # a new version: retrieval sees them
            self.add_passages(batch, rows[start:start + PASSAGE_BATCH], documents if start == 0 else [])
            batch.commit()
            if batch.version is not None:
                versions.append(batch.version)
        return versions

    def add_passages(self, batch: WriteBatch, rows: list[PassageRow], documents: list[DocumentRow]) -> None:
        """The statements of `write_passages`, added to a batch (an ingest batch's own transaction)."""
        batch.add_rows("memory/write_documents", documents)
        batch.add_rows("memory/write_passages", rows, pending=ExtractionState.PENDING.value)
        batch.add_rows("memory/link_next", next_links(rows))

    def mark_documents(self, doc_ids: list[str]) -> None:
        """Each document's status from its passages' extraction (ingesting, partial, done)."""
        if doc_ids:
            self.store.write("memory/mark_documents", space=self.space, doc_ids=doc_ids, **DOCUMENT_STATES)

    def mark_extraction(self, marks: list[ExtractionMark]) -> None:
        self._write_rows("memory/mark_extraction", marks)

    def record_usage(self, usage: list[DocumentUsage]) -> None:
        """Adds to the tokens and cost already recorded on each document."""
        self._write_rows("memory/record_usage", usage)

    # ----- the same, as statements of one batch's transaction (repository/batch.py) -------------
    def add_marks(self, batch: WriteBatch, marks: list[ExtractionMark], usage: list[DocumentUsage]) -> None:
        """Extraction marks, token usage, then the status of the documents they touch."""
        batch.add_rows("memory/mark_extraction", marks)
        batch.add_rows("memory/record_usage", usage)
        doc_ids = sorted({u.doc_id for u in usage})
        if doc_ids:
            batch.add("memory/mark_documents", doc_ids=doc_ids, **DOCUMENT_STATES)

    def memory_version(self) -> int:
        """The space's memory version now (0 before its first write)."""
        return self.store.read("memory/memory_version", space=self.space)[0]["version"]

    def bump_version(self) -> int:
        """A new memory version, unstamped: projections and copies of older versions are read again whole."""
        return self.store.write("memory/bump_version", space=self.space, stamped=False)[0]["version"]


# ----- title keys of passages written without one (memory/title_keys.py), across every space ---------
@dataclass(frozen=True, slots=True)
class UnkeyedTitle:
    space: str
    id: str
    title: str


def unkeyed_titles(store: GraphStore, space: str | None = None) -> list[UnkeyedTitle]:
    """Titled passages of one space (None: of every space) that lack their title key."""
    return [UnkeyedTitle(r["space"], r["id"], r["title"]) for r in store.read("memory/untitled_keys", space=space)]


def write_title_keys(store: GraphStore, keys: list[tuple[UnkeyedTitle, str | None]], space: str | None = None) -> int:
    """Each passage's title key, then the mark of each space (of `space`; None: every space) whose titled
    passages all have one now: how many spaces were marked."""
    rows = [{"space": t.space, "id": t.id, "title": t.title, "key": key} for t, key in keys]
    store.write_batched("memory/write_title_keys", rows, batch_size=BATCH)
    return store.write("memory/mark_title_keys", space=space)[0]["marked"]
