"""Ingest: documents -> passages -> memory-guided extraction -> facts -> promotion, batch by batch.

Promotion runs after every batch, so the stable schemas and canonical entities learned from
earlier batches guide the extraction of later ones (Algorithm 1, stages I, II and IV); the facts it
activates are checked for conflicts right away when a checker is given (stage III).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from pydantic import BaseModel
from tqdm.auto import tqdm

from memgraph_neo4j.contracts import ConsistencyChecker, ExtractionInput, ExtractionState, Extractor, NoGuide, Usage
from memgraph_neo4j.ingest.chunking import chunk_text
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.memory.writer import MemoryWriter
from memgraph_neo4j.repository.passages import DocumentRow, PassageRow


class IngestReport(BaseModel):
    documents: int = 0
    passages: int = 0
    passages_new: int = 0
    extracted: int = 0
    failed: int = 0
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


def passage_rows(documents: list[Document], tokens: int, overlap: int) -> list[PassageRow]:
    """Passages with stable ids: one per corpus passage, else token windows with char offsets, each
    with the pages and heading its offsets fall on (documents with sections: PDF, HTML, DOCX, Markdown)."""
    rows = []
    for doc in documents:
        if doc.metadata.get("single_passage"):
            spans = [(0, len(doc.text), doc.text)]
        else:
            spans = [(c.start, c.end, c.text) for c in chunk_text(doc.text, tokens=tokens, overlap=overlap)]
        previous = None
        for index, (start, end, text) in enumerate(spans):
            where = doc.provenance(start, end)
            rows.append(PassageRow(id=content_hash(doc.id, str(start), str(end)), doc_id=doc.id, index=index,
                                   title=doc.title or None, text=text, start=start, end=end,
                                   page=where.page, page_end=where.page_end, heading=where.heading,
                                   previous=previous))
            previous = rows[-1].id
    return rows


def document_rows(documents: list[Document]) -> list[DocumentRow]:
    return [DocumentRow(id=d.id, title=d.title or None, source=d.source or None, chars=len(d.text),
                        metadata=json.dumps(d.metadata, sort_keys=True, default=str) if d.metadata else None)
            for d in documents]


def ingest_documents(writer: MemoryWriter, documents: list[Document], extractor: Extractor,
                     batch_size: int = 64, guided: bool = True, dry_run: bool = False,
                     progress: bool = True, checker: ConsistencyChecker | None = None,
                     on_batch: Callable[[IngestReport, int], None] | None = None) -> IngestReport:
    """`checker`: adjudication, run on the newly active facts after every promotion (stage III).
    `on_batch(report, chunks_done)`: called after every batch (benchmarks time slices with it).

    Resumable: each batch is written in one transaction with its passages' extraction marks, and the
    batches are cut from the whole passage list, not from what is left to do. A run killed (or whose
    Neo4j was killed) at any point is finished by running it again: the committed batches are skipped
    without an extraction call, the others are redone against the same memory they saw the first
    time, so the space ends as an uninterrupted run would have left it."""
    began = time.monotonic()
    ontology = writer.ontology
    unique = list({d.id: d for d in documents}.values())
    report = IngestReport(documents=len(unique))
    passages = passage_rows(unique, ontology.chunking.tokens, ontology.chunking.overlap)
    report.passages = len(passages)
    existing = writer.existing_passages([p.id for p in passages])
    todo = [p for p in passages if existing.get(p.id) != ExtractionState.OK]  # new, failed or never reached
    guide = writer.guide() if guided else NoGuide()
    inputs = {p.id: ExtractionInput(passage_id=p.id, doc_id=p.doc_id, text=p.text, title=p.title) for p in todo}
    if dry_run:
        report.estimated_tokens = extractor.estimate(list(inputs.values()), guide).tokens
        report.seconds = time.monotonic() - began
        return report

    new_passages = [p for p in passages if p.id not in existing]
    report.passages_new = len(new_passages)
    writer.write_documents(document_rows(unique))
    if new_passages:
        writer.write_passages(new_passages)
        writer.bump_version()
    batches = [batch for start in range(0, len(passages), batch_size)
               if (batch := [inputs[p.id] for p in passages[start:start + batch_size] if p.id in inputs])]
    bar = tqdm(total=len(inputs), desc=f"extract [{extractor.name}]", unit="chunk", disable=not progress)
    # An extractor that does not read the guide (offline, replayed triples) extracts batch n+1 on a
    # second thread while batch n is written: the parse overlaps the Neo4j server's work on 2 cores.
    # One that reads it (LLM) extracts after the previous promotion, as Algorithm 1 orders it.
    ahead = ThreadPoolExecutor(max_workers=1) if not getattr(extractor, "uses_guide", True) else None
    pending = ahead.submit(extractor.extract, batches[0], guide) if ahead and batches else None
    done = 0
    try:
        for n, batch in enumerate(batches):
            if pending is not None:
                outcomes = pending.result()
                pending = ahead.submit(extractor.extract, batches[n + 1], guide) if n + 1 < len(batches) else None
            else:
                outcomes = extractor.extract(batch, guide)
            done += len(batch)
            if _record_batch(writer, outcomes, batch, checker, report, bar, on_batch, done, began):
                report.skipped_budget += len(inputs) - done
                break
    finally:
        if ahead is not None:
            ahead.shutdown(wait=True, cancel_futures=True)
    bar.close()
    report.seconds = time.monotonic() - began
    return report


def tally(report: IngestReport, outcomes, written, promoted: int, activated: int,
          checker: ConsistencyChecker | None) -> None:
    """Adds one written batch to the report, adjudicating first when it activated facts."""
    if checker is not None and activated:
        checked = checker.run()
        report.conflicts += checked.conflicts
        report.conflicts_resolved += checked.resolved
        report.conflicts_to_review += checked.needs_review
        report.usage = report.usage + checked.usage
    report.extracted += sum(o.ok for o in outcomes)
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


def _record_batch(writer: MemoryWriter, outcomes, batch, checker, report: IngestReport, bar, on_batch,
                  done: int, began: float) -> bool:
    """Writes one batch's outcomes and promotes (one transaction, which also moves the memory version
    on), adjudicates, updates the report; True: the budget is spent."""
    batch_report = writer.write_batch(outcomes)
    tally(report, outcomes, batch_report, batch_report.promoted, batch_report.activated, checker)
    bar.update(len(batch))
    if on_batch is not None:
        report.seconds = time.monotonic() - began
        on_batch(report, done)
    bar.set_postfix(facts=report.facts, failed=report.failed, stable=report.promoted)
    return any(o.skipped for o in outcomes)  # the budget is spent: stop at this chunk boundary
