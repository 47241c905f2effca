"""Prometheus metrics of the service (/metrics): requests and latency per route template, jobs, and per space
the memory version and the copies' size, read at the moment of the scrape.

Each ServiceMetrics has its own CollectorRegistry (never prometheus_client's global one), so two apps in one
process — tests, or a service embedded in another — keep separate counts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.routing import Mount

log = logging.getLogger(__name__)

# search answers in ~20-100 ms, ingest and deletes in seconds: fine below 250 ms, coarse up to 30 s
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
UNMATCHED = "unmatched"  # every path no route matched: one label, so random paths cannot grow the label set

SpaceStats = Callable[[], dict[str, dict[str, float]]]


class ServiceMetrics:
    """`collect_spaces()` -> {space: {"memory_version": v, "copy_bytes": b}}, called at each scrape (may be set
    after construction); a space it no longer returns has no series."""

    def __init__(self, collect_spaces: SpaceStats | None = None) -> None:
        self.collect_spaces = collect_spaces
        self.registry = CollectorRegistry()
        self.requests = Counter("memgraph_http_requests", "HTTP requests by route template and status",
                                ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram("memgraph_http_request_duration_seconds",
                                 "HTTP request latency until the response body ends", ["method", "route"],
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.jobs_running = Gauge("memgraph_jobs_running", "Background jobs running now", registry=self.registry)
        self.jobs = Counter("memgraph_jobs", "Background jobs finished, by kind and outcome", ["kind", "outcome"],
                            registry=self.registry)
        self.registry.register(_SpaceCollector(self))

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def render(self) -> tuple[bytes, str]:
        """The Prometheus text exposition and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class _SpaceCollector(Collector):
    def __init__(self, metrics: ServiceMetrics) -> None:
        self._metrics = metrics

    def describe(self) -> Iterator[Metric]:  # names only: no callback at registration
        yield from self._families()

    def collect(self) -> Iterator[Metric]:
        version, size = self._families()
        callback = self._metrics.collect_spaces
        try:
            stats = callback() if callback else {}
        except Exception:  # a failing callback must not fail the whole scrape
            log.exception("metrics: the per-space callback failed; no per-space series in this scrape")
            stats = {}
        for space, values in sorted(stats.items()):
            if values.get("memory_version") is not None:
                version.add_metric([space], float(values["memory_version"]))
            if values.get("copy_bytes") is not None:
                size.add_metric([space], float(values["copy_bytes"]))
        yield version
        yield size

    @staticmethod
    def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily]:
        return (GaugeMetricFamily("memgraph_memory_version", "Memory version of each open space", labels=["space"]),
                GaugeMetricFamily("memgraph_copy_bytes", "Bytes of the in-memory copies of each open space",
                                  labels=["space"]))


def route_label(scope: dict, entry_root_path: str = "") -> str:
    """The route template that served the request ("/v1/spaces/{space}/search"), never the concrete path.

    A route knows only its own template, relative to the routers and mounts it sits under (FastAPI's
    include_router prefixes, Mount paths), so the concrete part above it has its path parameters put back as
    {name}. A mount whose app has no route for the path: the mount's path. Nothing matched: "unmatched"."""
    path = scope.get("path") or ""
    if entry_root_path and path.startswith(entry_root_path):
        path = path[len(entry_root_path):]
    root = scope.get("root_path") or ""
    mount = root[len(entry_root_path):] if root.startswith(entry_root_path) else ""
    names = {str(value): name for name, value in (scope.get("path_params") or {}).items()}
    route = scope.get("route")
    template, regex = getattr(route, "path", None), getattr(route, "path_regex", None)
    if isinstance(route, Mount) or not isinstance(template, str) or regex is None:
        return _templated(mount, names) if mount else UNMATCHED
    for cut in (i for i, char in enumerate(path) if char == "/"):
        if regex.fullmatch(path[cut:]):  # the shortest prefix whose rest the route matches
            return _templated(path[:cut], names) + template
    return template


def _templated(prefix: str, names: dict[str, str]) -> str:
    return "/".join(f"{{{names[part]}}}" if part in names else part for part in prefix.split("/"))


class MetricsMiddleware:
    """ASGI middleware recording every HTTP request: count by method, route template and status, latency until
    the response body ends (streaming included). An exception before the body ends counts as a 500."""

    def __init__(self, app: Any, metrics: ServiceMetrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start, entry_root = time.perf_counter(), scope.get("root_path") or ""
        status: int | None = None
        recorded = False

        def record(code: int) -> None:
            nonlocal recorded
            if not recorded:
                recorded = True
                self.metrics.observe(scope["method"], route_label(scope, entry_root), code,
                                     time.perf_counter() - start)

        async def send_and_watch(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                record(status or 500)

        try:
            await self.app(scope, receive, send_and_watch)
        except BaseException:
            record(500)
            raise
        finally:  # the app returned without ending the body (client gone): what it sent, else 500
            record(status or 500)
