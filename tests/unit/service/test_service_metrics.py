"""Prometheus metrics of the service (memgraph_neo4j/service/metrics.py) through a tiny FastAPI app: request
counts and latency by route template, per-space gauges read at scrape time, one registry per instance."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")

from fastapi import APIRouter, FastAPI, HTTPException, Response  # noqa: E402
from fastapi.responses import StreamingResponse  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from memgraph_neo4j.service.metrics import MetricsMiddleware, ServiceMetrics  # noqa: E402

SEARCH, DOCUMENT = "/v1/spaces/{space}/search", "/v1/spaces/{space}/documents/{document}"


async def mounted(scope, receive, send):  # a stand-in for the MCP's ASGI app
    await send({"type": "http.response.start", "status": 202, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def make_app(metrics: ServiceMetrics) -> FastAPI:
    """Routes as the service nests them: routers under prefixes (one with a path parameter), a mounted
    FastAPI app and a mounted plain ASGI app."""
    app = FastAPI()
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    spaces, v1 = APIRouter(prefix="/spaces"), APIRouter(prefix="/v1")

    @spaces.get("/{space}/search")
    def search(space: str):
        if space == "forbidden":
            raise HTTPException(403, "no")
        return {"space": space}

    @v1.get("/boom")
    def boom():
        raise RuntimeError("a bug")

    @v1.get("/stream")
    async def stream():
        async def chunks():
            for _ in range(3):
                await asyncio.sleep(0.05)
                yield b"x"
        return StreamingResponse(chunks())

    one_space = APIRouter(prefix="/v1/spaces/{space}")

    @one_space.get("/documents/{document}")
    def document(space: str, document: str):
        return {"space": space, "document": document}

    v1.include_router(spaces)
    app.include_router(v1)
    app.include_router(one_space)

    @app.get("/metrics")
    def scrape():
        body, content_type = metrics.render()
        return Response(body, media_type=content_type)

    sub = FastAPI()

    @sub.get("/jobs/{job}")
    def job(job: str):
        return {"job": job}

    app.mount("/sub", sub)
    app.mount("/mcp", mounted)
    return app


def samples(metrics: ServiceMetrics, name: str) -> dict[tuple, float]:
    """{(sorted label items): value} of one sample name, parsed from the rendered text."""
    text = metrics.render()[0].decode()
    return {tuple(sorted(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples if s.name == name}


def count(metrics: ServiceMetrics, method: str, route: str, status: int) -> float:
    key = (("method", method), ("route", route), ("status", str(status)))
    return samples(metrics, "memgraph_http_requests_total").get(key, 0.0)


def test_requests_are_counted_by_route_template_and_status():
    metrics = ServiceMetrics()
    client = TestClient(make_app(metrics), raise_server_exceptions=False)
    for space in ("docs", "notes", "docs"):
        assert client.get(f"/v1/spaces/{space}/search").status_code == 200
    assert client.get("/v1/spaces/forbidden/search").status_code == 403
    assert client.post("/v1/spaces/docs/search").status_code == 405
    assert client.get("/v1/boom").status_code == 500
    assert client.get("/mcp/anything").status_code == 202
    assert client.get("/v1/spaces/docs/documents/d-1").json() == {"space": "docs", "document": "d-1"}
    assert client.get("/v1/spaces/spaces/documents/v1").status_code == 200  # values equal to literals
    assert client.get("/sub/jobs/j-7").status_code == 200
    assert client.get("/sub/no-such").status_code == 404
    assert count(metrics, "GET", SEARCH, 200) == 3
    assert count(metrics, "GET", SEARCH, 403) == 1
    assert count(metrics, "POST", SEARCH, 405) == 1
    assert count(metrics, "GET", "/v1/boom", 500) == 1
    assert count(metrics, "GET", "/mcp", 202) == 1
    assert count(metrics, "GET", DOCUMENT, 200) == 2
    assert count(metrics, "GET", "/sub/jobs/{job}", 200) == 1 and count(metrics, "GET", "/sub", 404) == 1
    text = metrics.render()[0].decode()
    assert 'route="/v1/spaces/{space}/search"' in text
    for concrete in ("docs", "notes", "anything", "d-1", "j-7", "no-such"):
        assert concrete not in text  # no concrete path in any label


def test_histogram_counts_every_request():
    metrics = ServiceMetrics()
    client = TestClient(make_app(metrics), raise_server_exceptions=False)
    for path in ("/v1/spaces/a/search", "/v1/spaces/b/search", "/v1/spaces/forbidden/search", "/v1/boom", "/nope"):
        client.get(path)
    counts = samples(metrics, "memgraph_http_requests_total")
    histogram = samples(metrics, "memgraph_http_request_duration_seconds_count")
    per_route: dict[tuple, float] = {}
    for labels, value in counts.items():
        key = tuple(item for item in labels if item[0] != "status")
        per_route[key] = per_route.get(key, 0.0) + value
    assert histogram == per_route and sum(histogram.values()) == 5
    assert histogram[(("method", "GET"), ("route", SEARCH))] == 3


def test_unmatched_paths_share_one_label():
    metrics = ServiceMetrics()
    client = TestClient(make_app(metrics))
    for path in ("/random/1", "/random/2", "/v2/whatever", "/v1/spaces/docs/search/extra"):
        assert client.get(path).status_code == 404
    routes = {dict(labels)["route"] for labels in samples(metrics, "memgraph_http_requests_total")}
    assert routes == {"unmatched"} and count(metrics, "GET", "unmatched", 404) == 4


def test_streaming_latency_lasts_until_the_body_ends():
    metrics = ServiceMetrics()
    client = TestClient(make_app(metrics))
    started = time.perf_counter()
    assert client.get("/v1/stream").content == b"xxx"
    elapsed = time.perf_counter() - started
    key = (("method", "GET"), ("route", "/v1/stream"))
    seconds = samples(metrics, "memgraph_http_request_duration_seconds_sum")[key]
    assert 0.15 <= seconds <= elapsed


def test_per_space_gauges_follow_the_callback_at_each_scrape():
    spaces = {"docs": {"memory_version": 7, "copy_bytes": 1024}, "notes": {"memory_version": 2, "copy_bytes": 0}}
    metrics = ServiceMetrics(lambda: spaces)
    assert samples(metrics, "memgraph_memory_version") == {(("space", "docs"),): 7.0, (("space", "notes"),): 2.0}
    assert samples(metrics, "memgraph_copy_bytes") == {(("space", "docs"),): 1024.0, (("space", "notes"),): 0.0}
    spaces["docs"]["memory_version"] = 8
    del spaces["notes"]  # closed
    assert samples(metrics, "memgraph_memory_version") == {(("space", "docs"),): 8.0}
    assert samples(metrics, "memgraph_copy_bytes") == {(("space", "docs"),): 1024.0}
    spaces.clear()
    assert samples(metrics, "memgraph_memory_version") == {} and samples(metrics, "memgraph_copy_bytes") == {}


def test_a_failing_or_late_callback_does_not_break_the_scrape():
    metrics = ServiceMetrics()
    assert samples(metrics, "memgraph_memory_version") == {}
    metrics.collect_spaces = lambda: {"docs": {"memory_version": 3}}  # set once the pool exists
    assert samples(metrics, "memgraph_memory_version") == {(("space", "docs"),): 3.0}
    assert samples(metrics, "memgraph_copy_bytes") == {}

    def broken():
        raise RuntimeError("pool closed")

    metrics.collect_spaces = broken
    metrics.jobs_running.set(2)
    assert samples(metrics, "memgraph_memory_version") == {}
    assert samples(metrics, "memgraph_jobs_running") == {(): 2.0}


def test_jobs_and_render():
    metrics = ServiceMetrics()
    metrics.jobs_running.inc()
    metrics.jobs.labels("ingest", "done").inc()
    metrics.jobs.labels("ingest", "done").inc()
    metrics.jobs.labels("ingest", "failed").inc()
    assert samples(metrics, "memgraph_jobs_total") == {
        (("kind", "ingest"), ("outcome", "done")): 2.0, (("kind", "ingest"), ("outcome", "failed")): 1.0}
    body, content_type = metrics.render()
    assert content_type.startswith("text/plain") and b"memgraph_jobs_running 1.0" in body
    answer = TestClient(make_app(metrics)).get("/metrics")
    assert answer.headers["content-type"].startswith("text/plain") and b"memgraph_jobs_total" in answer.content


def test_two_instances_keep_their_own_counts():
    first, second = ServiceMetrics(), ServiceMetrics()
    TestClient(make_app(first)).get("/v1/spaces/a/search")
    TestClient(make_app(first)).get("/v1/spaces/a/search")
    TestClient(make_app(second)).get("/v1/spaces/a/search")
    first.jobs_running.set(4)
    assert count(first, "GET", SEARCH, 200) == 2 and count(second, "GET", SEARCH, 200) == 1
    assert samples(second, "memgraph_jobs_running") == {(): 0.0}
