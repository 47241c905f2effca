"""Endpoints that write: files, texts and conversations (as jobs), retraction, jobs, spaces."""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Query, Request, Response, UploadFile
from starlette.exceptions import HTTPException

from memgraph_neo4j.service.auth import Right, requires
from memgraph_neo4j.service.jobs import FINISHED, Job, JobKind, UploadedFile
from memgraph_neo4j.service.models import ConversationRequest, RetractRequest, TextRequest

router = APIRouter(prefix="/v1")
CHUNK = 1 << 20  # bytes read from an upload at a time: an upload is spooled, never held whole
WAIT = "Wait for the job to finish (at most `timeout` seconds) and return it done, instead of 202 at once"


def _state(request: Request):
    return request.app.state.service


def _safe_name(name: str) -> str:
    """The file's base name, reduced to characters every file system takes (its extension picks the reader)."""
    base = re.split(r"[\\/]", name or "")[-1]
    cleaned = re.sub(r"[^\w.\- ]", "_", base).strip(" .") or "upload"
    return cleaned[-200:]


def _answer(request: Request, response: Response, job: Job, wait: bool, timeout: float) -> Job:
    service = _state(request)
    if wait:
        job = service.jobs.wait(job.id, timeout)
    response.status_code = 200 if job.status in FINISHED else 202
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return job


@router.post("/spaces/{space}/documents", response_model=Job, status_code=202, tags=["documents"],
             summary="Upload files (PDF, HTML, DOCX, Markdown, text, JSON, a chat .jsonl) to ingest as a job")
async def upload(request: Request, response: Response, space: str,
                 files: Annotated[list[UploadFile], File(description="One or more files")],
                 title: Annotated[str | None, Form()] = None,
                 wait: Annotated[bool, Query(description=WAIT)] = False,
                 timeout: Annotated[float, Query(gt=0, le=86400)] = 600.0,
                 _: object = Depends(requires(Right.WRITE))) -> Job:
    from memgraph_neo4j.ingest.readers import SUPPORTED_EXTENSIONS

    service = _state(request)
    service.pool.name(space)
    for upload_file in files:
        suffix = PurePath(upload_file.filename or "").suffix.lower()
        if suffix not in SUPPORTED_EXTENSIONS:
            raise HTTPException(415, f"file {upload_file.filename!r}: not a supported format; send one of "
                                     f"{', '.join(sorted(SUPPORTED_EXTENSIONS))}")
    job = service.store.create(space, JobKind.FILES, title)
    folder, limit, total = service.store.inputs(job), service.max_upload_bytes, 0
    try:
        for n, upload_file in enumerate(files):
            stored = f"{n}/{_safe_name(upload_file.filename)}"
            (folder / str(n)).mkdir()
            with open(folder / stored, "wb") as out:
                while chunk := await upload_file.read(CHUNK):
                    total += len(chunk)
                    if total > limit:
                        raise HTTPException(413, f"upload larger than {limit // (1 << 20)} MB: send fewer or smaller "
                                                 "files (the service's MEMGRAPH_SERVICE_MAX_UPLOAD_MB)")
                    out.write(chunk)
            job.files.append(UploadedFile(name=upload_file.filename or stored, stored=stored,
                                          bytes=(folder / stored).stat().st_size))
    except BaseException:
        service.store.discard(job)
        raise
    service.jobs.submit(job)
    return await _wait_async(request, response, job, wait, timeout)


async def _wait_async(request: Request, response: Response, job: Job, wait: bool, timeout: float) -> Job:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_answer, request, response, job, wait, timeout)


def _submit_json(request: Request, space: str, kind: JobKind, name: str, body: str, title: str | None) -> Job:
    service = _state(request)
    service.pool.name(space)
    job = service.store.create(space, kind, title)
    (service.store.inputs(job) / name).write_text(body, encoding="utf-8")
    return service.jobs.submit(job)


@router.post("/spaces/{space}/texts", response_model=Job, status_code=202, tags=["documents"],
             summary="Remember a text (one document) as a job; `wait=true` returns it done")
def post_text(request: Request, response: Response, space: str, body: TextRequest,
              wait: Annotated[bool, Query(description=WAIT)] = False,
              timeout: Annotated[float, Query(gt=0, le=86400)] = 600.0,
              _: object = Depends(requires(Right.WRITE))) -> Job:
    job = _submit_json(request, space, JobKind.TEXT, "text.json", body.model_dump_json(), body.title)
    return _answer(request, response, job, wait, timeout)


@router.post("/spaces/{space}/conversations", response_model=Job, status_code=202, tags=["documents"],
             summary="Remember conversation turns (speaker, text, time) as episodes, as a job")
def post_conversation(request: Request, response: Response, space: str, body: ConversationRequest,
                      wait: Annotated[bool, Query(description=WAIT)] = False,
                      timeout: Annotated[float, Query(gt=0, le=86400)] = 600.0,
                      _: object = Depends(requires(Right.WRITE))) -> Job:
    from memgraph_neo4j.ingest.episodes import conversations_of_records

    records = [t.model_dump(exclude_none=True) for t in body.turns]
    conversations_of_records((f"turn {n}", t) for n, t in enumerate(records, 1))  # a bad turn: 400 now
    job = _submit_json(request, space, JobKind.CONVERSATIONS, "turns.json",
                       body.model_dump_json(exclude_none=True), body.title)
    return _answer(request, response, job, wait, timeout)


@router.get("/spaces/{space}/documents", tags=["documents"], summary="The space's documents in ingest order")
def documents(request: Request, space: str, limit: Annotated[int | None, Query(ge=1)] = None,
              skip: Annotated[int, Query(ge=0)] = 0, source: str | None = None,
              _: object = Depends(requires(Right.READ))):
    with _state(request).pool.use(space) as memory:
        return memory.documents(limit, skip, source)


@router.delete("/spaces/{space}/documents/{doc_id}", tags=["documents"],
               summary="Forget a document (id or unique prefix); ingesting it again restores it")
def retract_one(request: Request, space: str, doc_id: str, _: object = Depends(requires(Right.WRITE))):
    with _state(request).pool.use(space) as memory:
        return memory.retract(doc_id)


@router.post("/spaces/{space}/documents/retract", tags=["documents"], summary="Forget several documents at once")
def retract(request: Request, space: str, body: RetractRequest, _: object = Depends(requires(Right.WRITE))):
    with _state(request).pool.use(space) as memory:
        return memory.retract(body.ids)


@router.get("/jobs", response_model=list[Job], tags=["jobs"], summary="Jobs, oldest first (of the spaces the "
                                                                     "token sees)")
def jobs(request: Request, space: str | None = None, grant=Depends(requires(Right.READ))) -> list[Job]:
    return [j for j in _state(request).jobs.list(space) if grant.sees(j.space)]


def _job(request: Request, job_id: str, grant, right: Right) -> Job:
    job = _state(request).jobs.get(job_id)
    if not grant.allows(job.space, right):
        raise HTTPException(403, f"token {grant.name!r} may not {right} space {job.space!r}")
    return job


@router.get("/jobs/{job_id}", response_model=Job, tags=["jobs"], summary="A job: status, progress, report")
def job(request: Request, job_id: str, wait: Annotated[bool, Query(description=WAIT)] = False,
        timeout: Annotated[float, Query(gt=0, le=86400)] = 600.0, grant=Depends(requires(Right.READ))) -> Job:
    found = _job(request, job_id, grant, Right.READ)
    return _state(request).jobs.wait(found.id, timeout) if wait else found


@router.delete("/jobs/{job_id}", response_model=Job, tags=["jobs"],
               summary="Cancel a job: at once if queued, after its current batch if running")
def cancel(request: Request, job_id: str, grant=Depends(requires(Right.READ))) -> Job:
    _job(request, job_id, grant, Right.WRITE)
    return _state(request).jobs.cancel(job_id)


@router.get("/spaces", tags=["spaces"], summary="The spaces the database holds (those the token sees)")
def spaces(request: Request, grant=Depends(requires(Right.READ))):
    with _state(request).pool.memory(_state(request).pool.default) as memory:
        return [s for s in memory.spaces() if grant.sees(s.name)]


@router.delete("/spaces/{space}", tags=["spaces"], summary="Delete a space and everything in it")
def delete_space(request: Request, space: str, _: object = Depends(requires(Right.ADMIN))):
    pool = _state(request).pool
    with pool.use(space) as memory:
        dropped = memory.delete()
    pool.forget(space)
    return {"space": space, "dropped_projections": dropped}
