"""The fixtures of the service tests: a service on the session's Neo4j test instance with a spool of its own
(tmp_path), and its URL while it runs (service_harness.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from service_harness import new_service, running  # noqa: E402

from memgraph_neo4j.service.app import Service  # noqa: E402


@pytest.fixture
def service(test_settings, store, minilm, tmp_path) -> Service:
    return new_service(test_settings, store, minilm, tmp_path / "jobs")


@pytest.fixture
def service_url(service) -> Iterator[str]:
    with running(service) as url:
        yield url
