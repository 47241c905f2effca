"""A real memory service for the tests: uvicorn on a free loopback port, in a thread of the test process, on
the session's Neo4j test instance (imported by the tests by name: their folder is on sys.path, as pytest puts it)."""

from __future__ import annotations

import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from memgraph_neo4j.repository.documents import delete_space  # noqa: E402
from memgraph_neo4j.retrieval.projection import space_prefix  # noqa: E402
from memgraph_neo4j.service.app import Service, build_app  # noqa: E402
from memgraph_neo4j.service.auth import TokenTable  # noqa: E402
from memgraph_neo4j.service.run import make_service  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running(service: Service, port: int | None = None) -> Iterator[str]:
    """Serve `service` until the block ends (uvicorn's graceful shutdown: the app's lifespan stops the jobs),
    yielding its base URL once the port accepts connections."""
    import uvicorn

    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(build_app(service), host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=30))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the service did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(60)


def new_service(test_settings, store, minilm, spool: Path, tokens: TokenTable | None = None,
                spaces: tuple[str, ...] = (), mcp: bool = True) -> Service:
    return make_service(test_settings, spaces=spaces, tokens=tokens or TokenTable(), host="127.0.0.1",
                        store=store, embedder=minilm, mcp=mcp, spool=spool)




def _test_spaces(store, count: int = 2) -> Iterator[tuple[str, ...]]:
    """Fresh test space names, deleted after with their PageRank projections (left in the GDS catalog, a
    session's hundreds of them filled the server's heap: tests/conftest.py's `space`)."""
    names = tuple(f"t_{uuid.uuid4().hex[:10]}" for _ in range(count))
    yield names
    for name in names:
        delete_space(store, name, re.escape(space_prefix(name)) + r"\d+_p.*")


@pytest.fixture(scope="module")
def module_spaces(store) -> Iterator[tuple[str, ...]]:
    """Two test spaces for a module's tests."""
    yield from _test_spaces(store)


@pytest.fixture
def two_spaces(store) -> Iterator[tuple[str, ...]]:
    """Two test spaces for one test."""
    yield from _test_spaces(store)
