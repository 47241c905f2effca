"""`memgraph-neo4j ingest` as the memory service's client: the files the in-process ingest would read, uploaded
in bounded groups (each a job of the service, streamed from disk), then followed to their end; the jobs'
reports are added up into the IngestReport the command prints as in process.

Each file is sent under the path as typed (a folder's files as its walk names them), which the service
keeps as the documents' source: the documents list as after `ingest` in process. Chat files are read here
first (their conversations counted, a malformed line reported as in process), then sent as they are.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from typing import Any

import typer

from memgraph_neo4j.cli.output import fail, warning
from memgraph_neo4j.service.client import ServiceClient, ServiceError

GROUP_FILES = 200  # files per upload: one request, one job
GROUP_BYTES = 64 << 20  # bytes per upload (a larger file goes alone; the service's limit is 256 MB by default)
POLL = 1.0  # seconds between two progress lines of a job on a terminal


def files_of(paths: list[Path]) -> list[tuple[Path, str]]:
    """(file, the name it is sent as) for every file ingest reads in `paths`, in its order."""
    from memgraph_neo4j.ingest.readers import SUPPORTED_EXTENSIONS, check_path, folder_files

    found = []
    for path in paths:
        try:
            check_path(path)
        except (OSError, ValueError) as exc:
            fail(str(exc))
        if path.is_dir():
            found += [(f, str(f)) for f in folder_files(path)]
        elif path.suffix.lower() in SUPPORTED_EXTENSIONS:
            found.append((path, str(path)))
        else:
            fail(f"unsupported file type {path.suffix or '(none)'!r} for {path}; supported: "
                 f"{', '.join(sorted(SUPPORTED_EXTENSIONS))} (plain text: rename it to .txt)")
    if not found:
        fail(f"no text in {', '.join(map(str, paths))}: no file in it has text to ingest (read: "
             f"{', '.join(sorted(SUPPORTED_EXTENSIONS))})")
    return found


def groups(files: list[tuple[Path, str]]) -> list[list[tuple[Path, str]]]:
    """Consecutive files of at most GROUP_FILES and GROUP_BYTES (a larger file alone)."""
    out: list[list[tuple[Path, str]]] = []
    size = 0
    for file in files:
        bytes_ = file[0].stat().st_size
        if not out or len(out[-1]) >= GROUP_FILES or (out[-1] and size + bytes_ > GROUP_BYTES):
            out.append([])
            size = 0
        out[-1].append(file)
        size += bytes_
    return out


def conversations_in(chats: list[Path]) -> int:
    """The conversations of the chat files, read as in process (a malformed line ends the command)."""
    from memgraph_neo4j.ingest.episodes import read_chat_jsonl

    try:
        return sum(len(read_chat_jsonl(path)) for path in chats)
    except ValueError as exc:
        fail(str(exc))
        raise


def ingest(service: ServiceClient, space: str, paths: list[Path], chats: list[Path] | None,
           conversation: bool | None) -> tuple[Any, int]:
    """The files ingested by the service: (the IngestReport of all its jobs, conversations read)."""
    from memgraph_neo4j.ingest.chat_file import is_chat_file

    files = [(chat, str(chat)) for chat in chats] if chats is not None else files_of(paths)
    if chats is None and conversation is False:
        chat = next((f for f, _ in files if is_chat_file(f)), None)
        if chat is not None:  # the service reads every chat file as a conversation
            fail(f"--no-conversation: the memory service at {service.url} reads {chat} as a conversation; unset "
                 "MEMGRAPH_SERVICE_URL to read it as documents in process")
    conversations = conversations_in(chats) if chats is not None else 0
    jobs: list[dict[str, Any]] = []
    try:
        jobs = _submit(service, space, groups(files))
        reports = [_follow(service, job, n, len(jobs)) for n, job in enumerate(jobs, 1)]
    except ServiceError as exc:
        _cancel(service, jobs)
        from memgraph_neo4j.cli.remote import fail_with

        fail_with(exc)
    except KeyboardInterrupt:
        _cancel(service, jobs)
        raise
    return merged(reports), conversations


def _submit(service: ServiceClient, space: str, grouped: list[list[tuple[Path, str]]]) -> list[dict[str, Any]]:
    shown = sys.stderr.isatty() and len(grouped) > 1
    jobs, sent = [], 0
    for group in grouped:
        jobs.append(service.upload(space, [f for f, _ in group], [n for _, n in group], wait=False))
        sent += len(group)
        if shown:
            sys.stderr.write(f"\ruploaded {sent} files in {len(jobs)} of {len(grouped)} jobs")
    if shown:
        sys.stderr.write("\n")
    return jobs


def _follow(service: ServiceClient, job: dict[str, Any], n: int, total: int) -> Any:
    """The job's IngestReport once it ended; progress on a terminal; a failed job ends the command."""
    from memgraph_neo4j.ingest.pipeline import IngestReport

    shown = sys.stderr.isatty()
    began = time.monotonic()
    while job["status"] not in ("done", "failed", "cancelled", "interrupted"):
        job = service.job(job["id"], wait=True, timeout=POLL if shown else None)
        if shown:
            p = job["progress"]
            sys.stderr.write(f"\rjob {n}/{total} {job['status']}: {p['chunks_done']} chunks, {p['passages']} "
                             f"passages, {p['facts']} facts; {time.monotonic() - began:.0f}s ")
    if shown:
        sys.stderr.write("\n")
    if job["status"] == "failed":
        fail(f"the memory service's job {job['id']} failed: {job.get('error') or 'no reason given'}")
    if job["status"] != "done":  # cancelled, or the service stopped during it (its next start resumes it)
        warning(f"job {job['id']} {job['status']} at the memory service {service.url}: run the same ingest "
                "again to resume: the batches written are kept and skipped")
        raise typer.Exit(128 + signal.SIGINT)
    return IngestReport.model_validate(job["report"])


def _cancel(service: ServiceClient, jobs: list[dict[str, Any]]) -> None:
    """Ctrl-C as in process: the jobs not finished stop (a running one after its current batch)."""
    for job in jobs:
        try:
            service.cancel(job["id"])
        except ServiceError:
            continue


def merged(reports: list[Any]) -> Any:
    """The reports of several jobs as one run's: counts and usage added up."""
    total = reports[0].model_copy(deep=True)
    for report in reports[1:]:
        for name in type(report).model_fields:
            value = getattr(report, name)
            if isinstance(value, bool):
                setattr(total, name, getattr(total, name) or value)
            elif isinstance(value, (int, float)):
                setattr(total, name, (getattr(total, name) or 0) + value)
        total.usage = total.usage + report.usage
        total.failed_causes = {k: total.failed_causes.get(k, 0) + report.failed_causes.get(k, 0)
                               for k in {**total.failed_causes, **report.failed_causes}}
    return total
