"""Long writes as jobs: a job id, progress and status, on a spool directory that outlives the process.

A job is a folder `<spool>/<id>/`: `job.json` (what to ingest, where, and its state) and `input/` (the
uploaded files, or the text or turns as JSON). Jobs run one at a time on one worker thread: an ingest
keeps both cores busy (embedding, then Neo4j's commit), so two at once only interleave. A client that
disconnects does not stop a job: nothing ties it to the request.

Restart: `start()` queues again every job found queued or running (a killed process) or interrupted (a
stopped one). Running it again is the resumable ingest (ingest/pipeline.py): the committed batches are
skipped, the rest redone, and the space ends as one uninterrupted run would have left it.

Graceful stop: `stop()` lets the running job finish its current batch (its transaction commits), then
ends the ingest as Ctrl-C does (IngestInterrupted: the space's lease is released) and marks the job
interrupted, for the next start to resume.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from memgraph_neo4j.validation import check_space


class JobStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    INTERRUPTED = "interrupted"  # the service stopped during it: the next start resumes it
    CANCELLED = "cancelled"


FINISHED = {JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED}
RESUMED = {JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.INTERRUPTED}


class JobKind(StrEnum):
    FILES = "files"  # uploaded files, read by the file readers (PDF, HTML, DOCX, Markdown, text, JSON)
    TEXT = "text"  # one text: a Document
    CONVERSATIONS = "conversations"  # chat records: episodes


class UploadedFile(BaseModel):
    name: str  # as the client named it: the documents' source
    stored: str  # the file under input/
    bytes: int


class Progress(BaseModel):
    chunks_done: int = 0
    passages: int = 0
    facts: int = 0
    seconds: float = 0.0


class Job(BaseModel):
    id: str
    space: str
    kind: JobKind
    status: JobStatus = JobStatus.QUEUED
    created_at: str
    started_at: str | None = None
    finished_at: str | None = None
    runs: int = 0  # how many times it started: above 1, it was resumed
    title: str | None = None
    files: list[UploadedFile] = Field(default_factory=list)
    progress: Progress = Field(default_factory=Progress)
    doc_ids: list[str] = Field(default_factory=list)  # the documents it wrote (retract them by these)
    report: dict[str, Any] | None = None  # the ingest's IngestReport, once finished
    error: str | None = None


class JobNotFound(ValueError):
    status = 404


class ServiceStopping(ValueError):
    """A job sent while the service stops: 503, and its spooled input is discarded."""

    status = 503


class StopJob(KeyboardInterrupt):
    """Raised between two batches to end a job's ingest as Ctrl-C does (its batches kept)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class JobStore:
    """Jobs on disk: every state change is written whole to job.json (write, then rename: never half)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def folder(self, job_id: str) -> Path:
        if not job_id.isalnum():  # ids are hex: anything else names no job (and no other folder)
            raise JobNotFound(f"job {job_id!r}: no such job (GET /v1/jobs lists them)")
        return self.root / job_id

    def create(self, space: str, kind: JobKind, title: str | None = None) -> Job:
        check_space(space)
        job = Job(id=uuid.uuid4().hex[:20], space=space, kind=kind, created_at=_now(), title=title)
        (self.folder(job.id) / "input").mkdir(parents=True)
        return job

    def inputs(self, job: Job) -> Path:
        return self.folder(job.id) / "input"

    def save(self, job: Job) -> None:
        path = self.folder(job.id) / "job.json"
        temporary = path.with_suffix(".tmp")
        temporary.write_text(job.model_dump_json(indent=1), encoding="utf-8")
        os.replace(temporary, path)

    def load(self, job_id: str) -> Job:
        path = self.folder(job_id) / "job.json"
        if not path.is_file():
            raise JobNotFound(f"job {job_id!r}: no such job (GET /v1/jobs lists them)")
        return Job.model_validate_json(path.read_text(encoding="utf-8"))

    def all(self) -> list[Job]:
        jobs = []
        for path in self.root.glob("*/job.json"):
            try:
                jobs.append(Job.model_validate_json(path.read_text(encoding="utf-8")))
            except ValueError:  # a job.json cut by a crash before os.replace cannot exist; a foreign file can
                continue
        return sorted(jobs, key=lambda j: j.created_at)

    def discard(self, job: Job) -> None:
        shutil.rmtree(self.folder(job.id), ignore_errors=True)


Runner = Callable[[Job, Callable[[Progress], None]], dict[str, Any]]


class JobQueue:
    """One worker thread running jobs in order; `run(job, progress)` does the ingest and returns its report."""

    def __init__(self, store: JobStore, run: Runner,
                 on_change: Callable[[Job], None] | None = None) -> None:
        self.store, self._run, self._on_change = store, run, on_change
        self._queue: deque[str] = deque()
        self._jobs: dict[str, Job] = {}
        self._changed = threading.Condition()
        self._stopping = False
        self._cancel: set[str] = set()
        self._thread: threading.Thread | None = None
        self.running: str | None = None

    def start(self) -> list[Job]:
        """Start the worker, first queueing again the jobs a previous process left unfinished: those."""
        resumed = [j for j in self.store.all() if j.status in RESUMED]
        with self._changed:
            for job in self.store.all():
                self._jobs[job.id] = job
            for job in resumed:
                job.status = JobStatus.QUEUED
                self.store.save(job)
                self._queue.append(job.id)
        self._thread = threading.Thread(target=self._work, name="memgraph-jobs", daemon=True)
        self._thread.start()
        return resumed

    def submit(self, job: Job) -> Job:
        with self._changed:
            if self._stopping:
                self.store.discard(job)
                raise ServiceStopping("the service is stopping: send the job again once it is back")
            self.store.save(job)
            self._jobs[job.id] = job
            self._queue.append(job.id)
            self._changed.notify_all()
        return job

    def get(self, job_id: str) -> Job:
        with self._changed:
            job = self._jobs.get(job_id)
        return (job or self.store.load(job_id)).model_copy(deep=True)

    def list(self, space: str | None = None) -> list[Job]:
        with self._changed:
            jobs = [j.model_copy(deep=True) for j in self._jobs.values()]
        return [j for j in sorted(jobs, key=lambda j: j.created_at) if space is None or j.space == space]

    def wait(self, job_id: str, timeout: float | None = None) -> Job:
        """The job once finished (or as it is when `timeout` seconds pass)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while (job := self._jobs.get(job_id)) is not None and job.status not in FINISHED:
                if self._stopping and job.id != self.running:  # the next start resumes it: say where it stands
                    break
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._changed.wait(left)
        return self.get(job_id)

    def cancel(self, job_id: str) -> Job:
        """A queued job is cancelled at once; a running one after its current batch."""
        with self._changed:
            job = self._jobs.get(job_id)
            if job is None:
                raise JobNotFound(f"job {job_id!r}: no such job (GET /v1/jobs lists them)")
            if job.status == JobStatus.QUEUED:
                self._queue.remove(job_id)
                self._finish(job, JobStatus.CANCELLED)
            elif job.status == JobStatus.RUNNING:
                self._cancel.add(job_id)
        return self.get(job_id)

    def stopping(self) -> None:
        """No job starts any more, the running one stops after its current batch, and every wait() returns
        once its job is not running: the server calls this as its shutdown begins, before it waits for the
        open requests (a client waiting for a job would otherwise hold the stop until the job ended)."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()

    def stop(self, timeout: float | None = None) -> None:
        """The running job stops after its current batch (interrupted, resumed by the next start)."""
        self.stopping()
        if self._thread is not None:
            self._thread.join(timeout)

    # ----- the worker ----------------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._stopping:
                    self._changed.wait()
                if self._stopping:
                    return
                job = self._jobs[self._queue.popleft()]
                job.status, job.started_at, job.error = JobStatus.RUNNING, _now(), None
                job.runs += 1
                self.running = job.id
                self._changed_job(job)
            self._execute(job)

    def _execute(self, job: Job) -> None:
        def progress(now: Progress) -> None:
            with self._changed:
                job.progress = now
                self._changed_job(job)
                if self._stopping or job.id in self._cancel:
                    raise StopJob

        try:
            report = self._run(job, progress)
        except KeyboardInterrupt:  # StopJob, or the ingest's IngestInterrupted carrying it
            with self._changed:
                cancelled = job.id in self._cancel
                self._finish(job, JobStatus.CANCELLED if cancelled else JobStatus.INTERRUPTED)
            return
        except Exception as exc:  # noqa: BLE001 - the job's failure is its state; the worker goes on
            with self._changed:
                job.error = " ".join(f"{type(exc).__name__}: {exc}".split())
                self._finish(job, JobStatus.FAILED)
            return
        with self._changed:
            job.report = report
            self._finish(job, JobStatus.DONE)

    def _finish(self, job: Job, status: JobStatus) -> None:
        job.status, job.finished_at = status, _now()
        self._cancel.discard(job.id)
        if self.running == job.id:
            self.running = None
        self._changed_job(job)

    def _changed_job(self, job: Job) -> None:  # under self._changed
        self.store.save(job)
        self._changed.notify_all()
        if self._on_change is not None:
            self._on_change(job)
