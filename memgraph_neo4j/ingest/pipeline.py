"""Ingest: documents -> passages -> memory-guided extraction -> facts -> promotion, batch by batch.

Promotion runs after every batch, so the stable schemas and canonical entities learned from
earlier batches guide the extraction of later ones (Algorithm 1, stages I, II and IV); the facts it
activates are checked for conflicts right away when a checker is given (stage III).
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from pydantic import BaseModel, computed_field
from tqdm.auto import tqdm

from memgraph_neo4j.contracts import (
    ConsistencyChecker,
    ExtractionInput,
    ExtractionState,
    Extractor,
    NoGuide,
    StopReason,
    Usage,
)
from memgraph_neo4j.ingest.chunking import chunk_text
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.lease import IngestLease
from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.writer import MemoryWriter
from memgraph_neo4j.repository.passages import DocumentRow, PassageRow


class IngestReport(BaseModel):
    documents: int = 0
    passages: int = 0
    passages_new: int = 0
    extracted: int = 0
    failed: int = 0  # chunks whose extraction failed this run (kept as failed; the next ingest retries them)
    failed_causes: dict[str, int] = {}  # their errors, distinct (the first MAX_CAUSES), with chunk counts
    skipped_budget: int = 0
    facts: int = 0
    dropped_facts: int = 0
    entities_new: int = 0
    promoted: int = 0
    activated: int = 0
    bridges: int = 0
    conflicts: int = 0  # found by adjudication after each promotion
    conflicts_resolved: int = 0
    conflicts_to_review: int = 0
    usage: Usage = Usage()
    estimated_tokens: int | None = None
    seconds: float = 0.0
    interrupted: bool = False  # Ctrl-C or SIGTERM ended the run (IngestInterrupted carries this report)

    @computed_field
    @property
    def stopped(self) -> StopReason:
        """Why the run ended, in the report of every surface (API, CLI --json, MCP): interrupted, else the
        budget (chunks left pending), else failed chunks, else done."""
        if self.interrupted:
            return StopReason.INTERRUPTED
        if self.skipped_budget:
            return StopReason.BUDGET
        return StopReason.FAILURES if self.failed else StopReason.DONE


class IngestInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a SIGTERM the caller turned into one) during an ingest: `report` is what the run did
    until then. The batches committed are kept; the same ingest again resumes after them."""

    def __init__(self, report: IngestReport) -> None:
        super().__init__("the ingest was interrupted")
        self.report = report


MAX_CAUSES = 10


def passage_rows(documents: list[Document], tokens: int, overlap: int) -> list[PassageRow]:
    """Passages with stable ids: one per corpus passage, else token windows with char offsets, each
    with the pages and heading its offsets fall on (documents with sections: PDF, HTML, DOCX, Markdown), where
    inside it the page or heading changes (for the labels of its sentences) and where a heading starts in it
    (the extraction resolves references within a section)."""
    rows = []
    for doc in documents:
        if doc.metadata.get("single_passage"):
            spans = [(0, len(doc.text), doc.text)]
        else:
            spans = [(c.start, c.end, c.text) for c in chunk_text(doc.text, tokens=tokens, overlap=overlap)]
        previous = None
        for index, (start, end, text) in enumerate(spans):
            where = doc.provenance(start, end)
            places = doc.locations(start, end)
            rows.append(PassageRow(id=content_hash(doc.id, str(start), str(end)), doc_id=doc.id, index=index,
                                   title=doc.title or None, text=text, start=start, end=end,
                                   page=where.page, page_end=where.page_end, heading=where.heading,
                                   sections=json.dumps([[p.offset, p.page, p.heading] for p in places])
                                   if len(places) > 1 else None,
                                   scopes=[p.offset for p, q in zip(places[1:], places) if p.heading != q.heading],
                                   previous=previous))
            previous = rows[-1].id
    return rows


def document_rows(documents: list[Document]) -> list[DocumentRow]:
    return [DocumentRow(id=d.id, title=d.title or None, source=d.source or None, chars=len(d.text),
                        metadata=json.dumps(d.metadata, sort_keys=True, default=str) if d.metadata else None)
            for d in documents]


GROUP_BATCHES = 2  # documents are pulled until this many batches of their passages wait to be extracted


@dataclass
class _Batch:
    """One batch of passages to extract, with what is written in its transaction before its extraction's
    outcomes: the documents pulled since the batch before, and its passages new to the space."""

    inputs: list[ExtractionInput]
    documents: list[DocumentRow] = field(default_factory=list)
    passages: list[PassageRow] = field(default_factory=list)


class _PassageStream:
    """The passages of a document stream, pulled document by document only as the batches need them: each
    group of documents is deduplicated by id (across the whole stream) and its passages queued. Batches are
    cut from the stream's whole passage sequence, as if it had been read at once, so a rerun cuts the same
    batches and skips the committed ones. A batch carries the documents pulled before it and its new
    passages: the writer stores them in the batch's own transaction (one commit of the passage indexes per
    write, not three transactions), so a kill leaves a batch's passages with its extraction or neither."""

    def __init__(self, writer: MemoryWriter, documents: Iterable[Document], batch_size: int, report: IngestReport,
                 write: bool) -> None:
        self.writer, self.batch_size, self.report, self.write = writer, batch_size, report, write
        self._documents = iter(documents)
        self._seen: set[str] = set()
        self._queue: deque[tuple[PassageRow, bool, bool]] = deque()  # (passage, still to extract, new)
        self._unwritten: list[DocumentRow] = []  # pulled, to be written with the next batch
        self.ended = False
        self.todo = 0  # passages to extract, of the documents pulled so far

    def pull(self, queue: bool = True) -> list[PassageRow]:
        """The next group of documents; returns its passages still to extract, queued for the batches
        (their documents to be written with the next one) unless `queue` is False (a dry run, or the
        documents a spent budget leaves: those are written now, without extraction)."""
        chunking = self.writer.ontology.chunking
        docs: list[Document] = []
        rows: list[PassageRow] = []
        while len(self._queue) + len(rows) < GROUP_BATCHES * self.batch_size:
            doc = next(self._documents, None)
            if doc is None:
                self.ended = True
                break
            if doc.id not in self._seen:
                self._seen.add(doc.id)
                docs.append(doc)
                rows += passage_rows([doc], chunking.tokens, chunking.overlap)
        if not docs:
            return []
        self.report.documents += len(docs)
        self.report.passages += len(rows)
        existing = self.writer.existing_passages([p.id for p in rows])
        new = {p.id for p in rows if p.id not in existing}
        if self.write:
            self.report.passages_new += len(new)
            self._unwritten += document_rows(docs)
            if not queue:
                self._write_now([p for p in rows if p.id in new])
        todo = [p for p in rows if existing.get(p.id) != ExtractionState.OK]  # new, failed or never reached
        self.todo += len(todo)
        if queue:
            wanted = {p.id for p in todo}
            self._queue.extend((p, p.id in wanted, p.id in new) for p in rows)
        return todo

    def next_batch(self) -> _Batch | None:
        """The next batch_size passages of the stream without those already extracted; None at its end
        (the documents no batch took are written then)."""
        while True:
            while len(self._queue) < self.batch_size and not self.ended:
                self.pull()
            if not self._queue:
                self._write_now([])
                return None
            block = [self._queue.popleft() for _ in range(min(self.batch_size, len(self._queue)))]
            if inputs := [_input(p) for p, todo, _ in block if todo]:
                documents, self._unwritten = self._unwritten, []
                return _Batch(inputs, documents, [p for p, _, new in block if new])

    def drain(self, left: list[_Batch] = ()) -> None:
        """Writes the documents and new passages no batch will take now (`left`: batches cut but not
        written, in order; their extraction is left for the next run)."""
        self._unwritten = [d for b in left for d in b.documents] + self._unwritten
        self._write_now([p for b in left for p in b.passages] + [p for p, _, new in self._queue if new])
        self._queue.clear()
        while not self.ended:
            self.pull(queue=False)
        self._write_now([])

    def _write_now(self, passages: list[PassageRow]) -> None:
        if self.write and (self._unwritten or passages):
            documents, self._unwritten = self._unwritten, []
            self.writer.write_passages(passages, documents)


def _input(p: PassageRow) -> ExtractionInput:
    return ExtractionInput(passage_id=p.id, doc_id=p.doc_id, text=p.text, title=p.title, scopes=p.scopes)


def ingest_documents(writer: MemoryWriter, documents: Iterable[Document], extractor: Extractor,
                     batch_size: int = 64, guided: bool = True, dry_run: bool = False,
                     progress: bool = True, checker: ConsistencyChecker | None = None,
                     on_batch: Callable[[IngestReport, int], None] | None = None) -> IngestReport:
    """`checker`: adjudication, run on the newly active facts after every promotion (stage III).
    `on_batch(report, chunks_done)`: called after every batch (benchmarks time slices with it).

    Documents are pulled from `documents` (any iterable, a generator included) a few batches ahead of the
    extraction, so a large corpus or file is never held whole. The space's ingest lease (memory/lease.py)
    is held from the first read to the end: a second ingest of the space waits for this one.

    Resumable: each batch is written in one transaction with its passages' extraction marks, and the
    batches are cut from the whole passage sequence, not from what is left to do. A run killed (or whose
    Neo4j was killed) at any point is finished by running it again: the committed batches are skipped
    without an extraction call, the others are redone against the same memory they saw the first
    time, so the space ends as an uninterrupted run would have left it."""
    began = time.monotonic()
    report = IngestReport()
    guide = writer.guide() if guided else NoGuide()
    if dry_run:  # nothing written, so no lease: the estimate of what an ingest now would extract
        stream = _PassageStream(writer, documents, batch_size, report, write=False)
        report.estimated_tokens = 0
        while not stream.ended:
            if todo := stream.pull(queue=False):
                report.estimated_tokens += extractor.estimate([_input(p) for p in todo], guide).tokens
        report.seconds = time.monotonic() - began
        return report
    try:
        with IngestLease(writer.store, writer.space) as lease:
            _extract_stream(writer, _PassageStream(writer, documents, batch_size, report, write=True), extractor,
                            guide, checker, report, progress, on_batch, lease, began,
                            first=lambda: resume(writer, checker, report))
    except KeyboardInterrupt as exc:
        report.interrupted, report.seconds = True, time.monotonic() - began
        raise IngestInterrupted(report) from exc
    report.seconds = time.monotonic() - began
    return report


def _extract_stream(writer: MemoryWriter, stream: _PassageStream, extractor: Extractor, guide, checker,
                    report: IngestReport, progress: bool, on_batch, lease: IngestLease, began: float,
                    first: Callable[[], None]) -> None:
    """`first`: what must be done before the first batch's write (resume). With staged extraction it runs
    while the first batches are parsed and embedded: its reads overlap their CPU (~13 ms of a one-message
    write's ~30 ms of extraction and embedding). It changes nothing they read: they read the text and which
    names the space holds, and resuming promotes and adjudicates facts, it adds no entity."""
    # No total until the last document is pulled: documents are pulled as the batches need them, so a total
    # set before would grow (and the percentage drop); until then the bar counts chunks, then shows the total
    bar = tqdm(total=None, desc=f"extract [{extractor.name}]", unit="chunk", disable=not progress)

    def next_batch() -> _Batch | None:
        batch = stream.next_batch()
        if stream.ended and bar.total is None:
            bar.total = stream.todo
            bar.refresh()
        return batch

    # Stages of the batches after the one being written (offline extractor, replayed triples: an extractor
    # that does not read the guide): batch n+2 is parsed on one thread while batch n+1's passages, new
    # names and likely fact texts are embedded on another (MemoryWriter.warm) and batch n is resolved and
    # committed here; the write embeds only what the warm-up missed, so the space is the same as a
    # sequential run's (tests/integration/test_ingest_stages.py). An extractor that reads the guide (LLM)
    # extracts after the previous promotion, as Algorithm 1 orders it: one batch at a time.
    staged = not getattr(extractor, "uses_guide", True) and writer.config.overlap_stages
    parse = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-parse") if staged else None
    embed = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-embed") if staged else None
    ahead: deque[tuple[_Batch, Future]] = deque()

    def warmed(batch: _Batch, parsed: Future) -> list:
        writer.warm_passages(batch.passages)  # while the batch is parsed
        outcomes = parsed.result()
        writer.warm(outcomes)
        return outcomes

    def fill() -> None:  # two batches ahead of the write: one parsed, one embedded
        while len(ahead) < 2 and (batch := next_batch()) is not None:
            parsed = parse.submit(extractor.extract, batch.inputs, guide)
            ahead.append((batch, embed.submit(warmed, batch, parsed)))

    done = 0
    try:
        if staged:
            fill()
        first()
        while True:
            if staged:  # filled before `first` and after each pop: empty only once the stream ended
                if not ahead:
                    break
                batch, warming = ahead.popleft()
                outcomes = warming.result()
                fill()  # the next batches start before this one's write
            else:
                if (batch := next_batch()) is None:
                    break
                outcomes = extractor.extract(batch.inputs, guide)
            done += len(batch.inputs)
            lease.check()
            if _record_batch(writer, outcomes, batch, checker, report, bar, on_batch, done, began):
                stream.drain([b for b, _ in ahead])
                report.skipped_budget += stream.todo - done
                break
    finally:
        for pool in (parse, embed):  # parse first: a warm-up waiting on a cancelled parse then ends too
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        bar.close()


def check(report: IngestReport, checker: ConsistencyChecker) -> None:
    """Adjudicates the space's unchecked active facts, adding what it found to the report."""
    checked = checker.run()
    report.conflicts += checked.conflicts
    report.conflicts_resolved += checked.resolved
    report.conflicts_to_review += checked.needs_review
    report.usage = report.usage + checked.usage


def resume(writer: MemoryWriter, checker: ConsistencyChecker | None, report: IngestReport) -> None:
    """First, what a killed run left undone after a write: the promotion of facts written without one
    (a conversation batch is written, then promoted), and the check of facts activated but not checked.
    Done before the new batches, where the killed run would have done it, and also when nothing is new."""
    if writer.facts.has_unpromoted():
        promoted, activated = writer.promote_written()
        report.promoted += promoted
        report.activated += activated
    if checker is not None:  # the check reads only the Unchecked facts: nothing to do costs one read
        check(report, checker)


def tally(report: IngestReport, outcomes, written, promoted: int, activated: int,
          checker: ConsistencyChecker | None) -> None:
    """Adds one written batch to the report, adjudicating first when it activated facts."""
    if checker is not None and activated:
        check(report, checker)
    report.extracted += sum(o.ok for o in outcomes)
    for o in outcomes:
        if not o.ok and not o.skipped and o.error:
            if o.error in report.failed_causes or len(report.failed_causes) < MAX_CAUSES:
                report.failed_causes[o.error] = report.failed_causes.get(o.error, 0) + 1
    report.skipped_budget += sum(o.skipped for o in outcomes)
    report.failed += written.failed
    report.facts += written.facts
    report.dropped_facts += written.dropped_facts
    report.entities_new += written.new_entities
    report.bridges += written.bridges
    report.promoted += promoted
    report.activated += activated
    for o in outcomes:
        report.usage = report.usage + o.usage


def _record_batch(writer: MemoryWriter, outcomes, batch: _Batch, checker, report: IngestReport, bar, on_batch,
                  done: int, began: float) -> bool:
    """Writes one batch (its documents and new passages, its outcomes) and promotes, in one transaction
    which also moves the memory version on; adjudicates, updates the report; True: the budget is spent."""
    batch_report = writer.write_batch(outcomes, documents=batch.documents, passages=batch.passages)
    tally(report, outcomes, batch_report, batch_report.promoted, batch_report.activated, checker)
    bar.update(len(batch.inputs))
    if on_batch is not None:
        report.seconds = time.monotonic() - began
        on_batch(report, done)
    bar.set_postfix(facts=report.facts, failed=report.failed, stable=report.promoted)
    return any(o.skipped for o in outcomes)  # the budget is spent: stop at this chunk boundary
