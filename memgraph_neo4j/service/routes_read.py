"""Endpoints that read (search, ask, facts, provenance, health, stats, export) and review conflicts."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, BackgroundTasks, Depends, Query, Request
from fastapi.responses import FileResponse

from memgraph_neo4j.contracts import ConflictStatus
from memgraph_neo4j.service.auth import Right, requires
from memgraph_neo4j.service.models import AcceptRequest, AskRequest, AskResponse, SearchRequest, SearchResponse

router = APIRouter(prefix="/v1/spaces/{space}")
Status = Literal[tuple(str(s) for s in ConflictStatus)]


def _pool(request: Request):
    return request.app.state.service.pool


@router.post("/search", response_model=SearchResponse, tags=["search"],
             summary="Top-k passages with the facts, schemas and entities that seeded them")
def search(request: Request, space: str, body: SearchRequest, _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space, must_exist=True) as memory:
        result = memory.search(body.query, method=body.method, top_k=body.top_k, top_m=body.top_m,
                               as_of=body.as_of, mode=body.mode)
    return SearchResponse.of(result, body.query)


@router.post("/ask", response_model=AskResponse, tags=["search"],
             summary="An answer citing passages: by the service's chat model, else extractive")
def ask(request: Request, space: str, body: AskRequest, _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space, must_exist=True) as memory:
        answer = memory.ask(body.question, method=body.method, top_k=body.top_k)
    return AskResponse.of(answer, body.question)


@router.get("/facts", tags=["facts"], summary="Facts valid at a time (default now), of an entity or relation")
def facts(request: Request, space: str, as_of: str | None = None,
          entity: Annotated[str | None, Query(description="An entity's name, as ingest resolves it")] = None,
          relation: str | None = None, limit: Annotated[int, Query(ge=1, le=100_000)] = 1000,
          _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space) as memory:
        entity_ids = None
        if entity is not None:
            found = memory.entity_ids([entity])[entity]
            if found is None:
                raise ValueError(f"no entity named {entity!r} in space {space!r}")
            entity_ids = [found]
        return memory.facts(as_of=as_of, entity_ids=entity_ids, relation=relation, limit=limit)


@router.get("/facts/{fact_id}/provenance", tags=["facts"],
            summary="Where a fact comes from: evidence, schema, state, lineage, conflicts")
def provenance(request: Request, space: str, fact_id: str, passages: Annotated[int, Query(ge=1, le=1000)] = 20,
               _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space) as memory:
        return memory.provenance(fact_id, passages)


@router.get("/conflicts", tags=["conflicts"], summary="Conflicts, newest first")
def conflicts(request: Request, space: str, status: Status | None = None,
              limit: Annotated[int, Query(ge=1, le=10_000)] = 100, _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space) as memory:
        return memory.conflicts.list(status, limit)


@router.get("/conflicts/{conflict_id}", tags=["conflicts"], summary="One conflict (id or unique prefix)")
def conflict(request: Request, space: str, conflict_id: str, _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space) as memory:
        return memory.conflicts.show(conflict_id)


@router.post("/conflicts/{conflict_id}/accept", tags=["conflicts"],
             summary="Apply the proposed verdicts, or keep one fact and discard the others")
def accept(request: Request, space: str, conflict_id: str, body: AcceptRequest | None = None,
           _: object = Depends(requires(Right.WRITE))):
    with _pool(request).use(space) as memory:
        return memory.conflicts.accept(conflict_id, body.keep if body else None)


@router.post("/conflicts/{conflict_id}/reject", tags=["conflicts"], summary="Not a conflict: undo and dismiss")
def reject(request: Request, space: str, conflict_id: str, _: object = Depends(requires(Right.WRITE))):
    with _pool(request).use(space) as memory:
        return memory.conflicts.reject(conflict_id)


@router.post("/conflicts/{conflict_id}/revert", tags=["conflicts"], summary="Restore the facts exactly as before")
def revert(request: Request, space: str, conflict_id: str, _: object = Depends(requires(Right.WRITE))):
    with _pool(request).use(space) as memory:
        return memory.conflicts.revert(conflict_id)


@router.get("/stats", tags=["health"], summary="Counts per label and state, conflicts, failed chunks, usage")
def stats(request: Request, space: str, _: object = Depends(requires(Right.READ))):
    with _pool(request).use(space) as memory:
        return memory.stats()


@router.get("/health", tags=["health"], summary="Graph health: degree, components, orphans, duplicates, schemas")
def health(request: Request, space: str, _: object = Depends(requires(Right.READ))):
    from memgraph_neo4j.evaluation.health import graph_health

    with _pool(request).use(space, must_exist=True) as memory:
        return graph_health(memory.store, memory.space)


@router.get("/export", tags=["spaces"], summary="The space's nodes and relationships, streamed (JSON lines or "
                                                "GraphML)")
def export(request: Request, space: str, background: BackgroundTasks,
           format: Literal["jsonl", "graphml"] = "jsonl", with_embeddings: bool = False,
           _: object = Depends(requires(Right.READ))) -> FileResponse:
    folder = Path(tempfile.mkdtemp(prefix="memgraph-export-"))
    path = folder / f"{space}.{format}"
    try:
        with _pool(request).use(space, must_exist=True) as memory:
            memory.export(path, format, with_embeddings)
    except BaseException:
        _remove(folder)
        raise
    background.add_task(_remove, folder)  # once the response has been sent
    media = "application/x-ndjson" if format == "jsonl" else "application/graphml+xml"
    return FileResponse(path, media_type=media, filename=path.name)


def _remove(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
