"""`serve`: build the pool, the job spool and the token table, refuse an open non-loopback bind, run uvicorn.

SIGINT / SIGTERM: uvicorn stops taking requests and runs the app's shutdown, where the running job
finishes its batch and is marked interrupted (service/jobs.py); the next start resumes it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from memgraph_neo4j.config import RetrievalConfig, Settings
from memgraph_neo4j.service.app import Service, build_app
from memgraph_neo4j.service.auth import TokenTable, check_bind
from memgraph_neo4j.service.jobs import JobStore
from memgraph_neo4j.service.pool import ServicePool

MB = 1 << 20


def service_dir(settings: Settings) -> Path:
    return Path(settings.service_dir or settings.home / "service").expanduser()


def make_service(settings: Settings, spaces: Sequence[str] = (), tokens: TokenTable | None = None,
                 host: str | None = None, extractor: Any = "offline", retrieval: RetrievalConfig | None = None,
                 store: Any = None, embedder: Any = "minilm", mcp: bool = True, spool: Path | None = None) -> Service:
    host = host or settings.service_host
    tokens = tokens if tokens is not None else TokenTable.load(None)
    check_bind(host, tokens)  # before connecting to anything
    pool = ServicePool(settings, store=store, spaces=spaces, extractor=extractor, embedder=embedder,
                       retrieval=retrieval)
    return Service(pool=pool, store=JobStore(spool or service_dir(settings) / "jobs"), tokens=tokens,
                   max_upload_bytes=settings.service_max_upload_mb * MB,
                   max_body_bytes=settings.service_max_body_mb * MB, host=host, mcp=mcp)


def url_of(host: str, port: int) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def run(service: Service, port: int, on_listening: Callable[[str], None] | None = None) -> None:
    """Serve until SIGINT / SIGTERM; `on_listening(url)` once the port accepts connections."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and on_listening is not None:
                on_listening(url_of(service.host, port))

        async def shutdown(self, sockets: Any = None) -> None:
            service.jobs.stopping()  # before uvicorn waits (up to 30 s) for the requests waiting for a job
            await super().shutdown(sockets)

    config = uvicorn.Config(build_app(service), host=service.host, port=port, log_level="warning",
                            timeout_graceful_shutdown=30, limit_concurrency=256)
    previous = None
    if threading.current_thread() is threading.main_thread():
        # uvicorn raises the signal that stopped it again once its shutdown is done: SIGTERM's default
        # action would then kill the process (exit -15) before the pool closes; as Ctrl-C, it ends here
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        Server(config).run()
    finally:
        try:
            service.pool.close()
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt
