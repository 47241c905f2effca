"""Every failure of a request as a 4xx (or 503) with one clear message, never a stack trace.

The body is FastAPI's `{"detail": message}`, plus, for a refusal whose remedy each surface words its own
way (validation.SurfaceError), `problem`, `remedy` and `values`: the CLI, as this service's client, words
it as its own commands, so it prints what it prints in process.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable
from starlette.exceptions import HTTPException

from memgraph_neo4j.store import StoreError
from memgraph_neo4j.validation import SurfaceError

log = logging.getLogger("memgraph_neo4j.service")

# The remedies of validation.SurfaceError (its API_REMEDIES), as this service's endpoints.
REMEDIES = {
    "list_conflicts": "list them with GET /v1/spaces/{space}/conflicts",
    "list_facts": "POST /v1/spaces/{space}/search and GET /v1/spaces/{space}/conflicts return fact ids",
    "list_documents": "list them with GET /v1/spaces/{space}/documents",
    "keep": 'accept it with POST /v1/spaces/SPACE/conflicts/ID/accept and {{"keep": FACT_ID}} (one of {facts})',
    "chat_model": "this service has no chat model (whoever runs it sets OPENAI_API_KEY or OPENAI_BASE_URL); "
                  "choose another method, e.g. hybrid",
}


def one_line(text: object) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def status_of(exc: Exception) -> int:
    """404 for what does not exist, 409 for a state that forbids the step, 400 for bad input."""
    given = getattr(exc, "status", None)
    if isinstance(given, int):
        return given
    text = str(getattr(exc, "problem", exc))
    if text.startswith("no ") or " no such " in text:
        return 404
    if type(exc).__name__ in ("ConflictError", "LeaseLost") and not text.startswith("status "):
        return 409
    return 400


def _body(message: str, exc: Exception | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": message}
    if isinstance(exc, SurfaceError):
        body.update(problem=exc.problem, remedy=exc.remedy,
                    values={k: v if isinstance(v, (str, int, float, list)) else str(v) for k, v in exc.values.items()})
    return body


def install(app: FastAPI) -> None:
    @app.exception_handler(SurfaceError)
    async def surface(_: Request, exc: SurfaceError) -> JSONResponse:
        return JSONResponse(_body(one_line(exc.worded(REMEDIES)), exc), status_code=status_of(exc))

    @app.exception_handler(ValueError)
    async def bad_input(_: Request, exc: ValueError) -> JSONResponse:
        return JSONResponse(_body(one_line(exc)), status_code=status_of(exc))

    @app.exception_handler(FileNotFoundError)
    async def missing(_: Request, exc: FileNotFoundError) -> JSONResponse:
        return JSONResponse(_body(one_line(exc)), status_code=404)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}"
                    for e in exc.errors()]
        return JSONResponse(_body("invalid request: " + "; ".join(problems)), status_code=422)

    @app.exception_handler(HTTPException)
    async def http(_: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse(_body(one_line(exc.detail)), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(StoreError)
    @app.exception_handler(ServiceUnavailable)
    @app.exception_handler(DriverError)
    async def unavailable(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(_body(f"Neo4j: {one_line(exc)}"), status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(Neo4jError)
    async def database(_: Request, exc: Neo4jError) -> JSONResponse:
        return JSONResponse(_body(f"Neo4j: {one_line(exc.message or exc)}"), status_code=400)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)  # the traceback stays in the log
        return JSONResponse(_body(f"internal error ({type(exc).__name__}); the service's log has the details"),
                            status_code=500)
