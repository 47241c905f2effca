"""What a job does: its input, ingested into its space through a MemoryGraph of its own (service/pool.py).

Uploaded files are read by the same readers as `memgraph-neo4j ingest` (a chat .jsonl becomes episodes);
each document's source is the name the client gave the file, not where the service spooled it, so
documents list as they would in process, and uploading a file again adds nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath
from typing import Any

from memgraph_neo4j.service.jobs import Job, JobKind, JobStore, Progress
from memgraph_neo4j.service.pool import ServicePool


def run_job(pool: ServicePool, jobs: JobStore, job: Job, progress: Callable[[Progress], None]) -> dict[str, Any]:
    from memgraph_neo4j.ingest.chat_file import is_chat_file
    from memgraph_neo4j.ingest.episodes import build_episodes, conversations_of_records, read_chat_jsonl
    from memgraph_neo4j.ingest.readers import Document

    folder = jobs.inputs(job)
    job.doc_ids = []  # a resumed job lists them again

    def on_batch(report, done: int) -> None:
        progress(Progress(chunks_done=done, passages=report.passages, facts=report.facts,
                          seconds=round(report.seconds, 3)))

    with pool.writer(job.space) as memory:
        if job.kind == JobKind.TEXT:
            given = json.loads((folder / "text.json").read_text(encoding="utf-8"))
            document = Document(title=(given.get("title") or "").strip(), text=given["text"].strip(),
                                source="service", metadata={"kind": "text"})
            job.doc_ids = [document.id]
            return memory.ingest([document], progress=False, on_batch=on_batch).model_dump(mode="json")
        if job.kind == JobKind.CONVERSATIONS:
            given = json.loads((folder / "turns.json").read_text(encoding="utf-8"))
            conversations = conversations_of_records((f"turn {n}", t) for n, t in enumerate(given["turns"], 1))
            if given.get("title") and len(conversations) == 1:
                conversations[0].title = given["title"].strip()
            job.doc_ids = [d.id for d in build_episodes(conversations).documents]
            return memory.ingest_conversations(conversations).model_dump(mode="json")
        chats = [f for f in job.files if is_chat_file(folder / f.stored)]
        files = [f for f in job.files if f not in chats]
        reports = []
        for chat in chats:  # as `memgraph-neo4j ingest chat.jsonl`: episodes with speaker and time
            conversations = read_chat_jsonl(folder / chat.stored)
            job.doc_ids += [d.id for d in build_episodes(conversations).documents]
            reports.append(memory.ingest_conversations(conversations))
        if files:
            reports.append(memory.ingest(_documents(folder, files, job.title, job.doc_ids), progress=False,
                                         on_batch=on_batch))
        return _sum(reports)


def _documents(folder: Path, files, title: str | None, doc_ids: list[str]) -> Iterator:
    """As a folder's walk reads them: a file without text among others is skipped; all without, an error."""
    from memgraph_neo4j.ingest.readers import EmptyFileError, iter_path

    found = False
    for upload in files:
        path = folder / upload.stored
        # a reader titles a document without a title of its own by the file's stem: the name sent, not the
        # spooled one (reduced to the characters every file system takes), as an ingest of the file in process
        spooled, sent = path.stem, PurePath(re.split(r"[\\/]", upload.name)[-1]).stem
        try:
            for document in iter_path(path):
                source = document.source.replace(str(path), upload.name) if document.source else upload.name
                update = {"source": source}
                if title and len(files) == 1:
                    update["title"] = title
                elif document.title == spooled and spooled != sent:
                    update["title"] = sent
                found = True
                document = document.model_copy(update=update)
                doc_ids.append(document.id)
                yield document
        except EmptyFileError:
            continue
    if not found:
        raise EmptyFileError(f"no text in {', '.join(f.name for f in files)}: nothing to ingest")


def _sum(reports: list) -> dict[str, Any]:
    if len(reports) == 1:
        return reports[0].model_dump(mode="json")
    total = reports[0].model_dump(mode="json")
    for report in reports[1:]:
        for key, value in report.model_dump(mode="json").items():
            if isinstance(value, (int, float)) and not isinstance(value, bool) and key in total:
                total[key] = (total[key] or 0) + value
    return total
