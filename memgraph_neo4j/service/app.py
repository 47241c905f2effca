"""The service as an ASGI app: FastAPI for /v1 (OpenAPI at /openapi.json, docs at /docs), /healthz,
/readyz, /metrics, and the MCP server over streamable HTTP at /mcp, all on one ServicePool."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse, Response

from memgraph_neo4j import __version__
from memgraph_neo4j.service import errors, routes_read, routes_write
from memgraph_neo4j.service.auth import BearerForMount, Right, TokenTable, requires
from memgraph_neo4j.service.jobs import JobQueue, JobStore
from memgraph_neo4j.service.limits import BodyLimit
from memgraph_neo4j.service.metrics import MetricsMiddleware, ServiceMetrics
from memgraph_neo4j.service.pool import ServicePool
from memgraph_neo4j.service.run_job import run_job

DESCRIPTION = ("A Neo4j knowledge-graph memory: documents and conversations in, facts checked for conflicts and "
               "linked to their evidence, retrieval by personalised PageRank. Long writes are jobs.")


@dataclass
class Service:
    pool: ServicePool
    store: JobStore
    tokens: TokenTable
    max_upload_bytes: int
    max_body_bytes: int
    host: str = "127.0.0.1"
    mcp: bool = True
    jobs: JobQueue = field(init=False)
    metrics: ServiceMetrics = field(init=False)
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.metrics = ServiceMetrics(self.pool.gauges)
        self.jobs = JobQueue(self.store, lambda job, progress: run_job(self.pool, self.store, job, progress),
                             on_change=self._count)

    def _count(self, job) -> None:
        self.metrics.jobs_running.set(1 if self.jobs.running else 0)
        if job.status in ("done", "failed", "cancelled", "interrupted"):
            self.metrics.jobs.labels(kind=str(job.kind), outcome=str(job.status)).inc()


def build_app(service: Service) -> Any:
    """The ASGI app. Its lifespan starts the job worker (resuming what a previous process left) and the MCP
    session manager, and on shutdown lets the running job finish its batch, then closes the spaces."""
    mcp_server = mcp_app = None
    if service.mcp:
        from memgraph_neo4j.mcp.server import build_server

        mcp_server = build_server(service.pool)
        mcp_app = mcp_server.streamable_http_app(streamable_http_path="/mcp", host=service.host)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        service.jobs.start()
        try:
            if mcp_server is not None:
                async with mcp_server.session_manager.run():
                    yield
            else:
                yield
        finally:
            from starlette.concurrency import run_in_threadpool

            await run_in_threadpool(service.jobs.stop)
            await run_in_threadpool(service.pool.close)  # the spaces' reader threads end, their copies kept

    app = FastAPI(title="memgraph-neo4j", version=__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.service, app.state.tokens = service, service.tokens
    errors.install(app)
    app.include_router(routes_write.router)
    app.include_router(routes_read.router)

    @app.get("/healthz", tags=["health"], summary="The process answers")
    def healthz() -> dict:
        return {"status": "ok", "version": __version__, "uptime_s": round(time.monotonic() - service.started, 1)}

    @app.get("/readyz", tags=["health"], summary="Neo4j and GDS answer (503 until they do)")
    def readyz() -> Response:
        from memgraph_neo4j.repository.server_info import server_components

        try:
            found = server_components(service.pool.store)
        except Exception as exc:  # noqa: BLE001 - not ready, whatever the cause: the probe says which
            return JSONResponse({"status": "unavailable", "detail": errors.one_line(exc)}, status_code=503)
        return JSONResponse({"status": "ready", **found})

    @app.get("/metrics", tags=["health"], summary="Prometheus text: requests, latency, jobs, memory versions")
    def metrics(_: object = Depends(requires(Right.READ))) -> Response:
        body, content_type = service.metrics.render()
        return Response(body, media_type=content_type)

    @app.get("/v1", tags=["health"], summary="What this service is and serves")
    def about(request: Request) -> dict:
        return {"name": "memgraph-neo4j", "version": __version__, "spaces": service.pool.confined or None,
                "mcp": "/mcp" if mcp_app is not None else None, "openapi": "/openapi.json"}

    inner = MetricsMiddleware(BodyLimit(app, service.max_body_bytes, service.max_upload_bytes), service.metrics)
    if mcp_app is None:
        return inner
    return McpDispatch(inner, BearerForMount(mcp_app, service.tokens))


class McpDispatch:
    """Requests for /mcp go to the MCP server's app (behind its bearer check); everything else, lifespan
    included, to FastAPI, whose lifespan runs the MCP session manager."""

    def __init__(self, app: Any, mcp: Any) -> None:
        self.app, self.mcp = app, mcp

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and (path == "/mcp" or path.startswith("/mcp/")):
            await self.mcp(scope, receive, send)
        else:
            await self.app(scope, receive, send)
