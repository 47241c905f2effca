"""docker-compose.yml's memory service (no Docker engine here, so its promises are read from the file): it
is built from this checkout with the extras that exist, listens on 127.0.0.1 only, cannot start without a
token (it binds every interface of its container, which the service refuses without one), waits for a
healthy Neo4j, and is healthy once /readyz answers (Neo4j and GDS)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_memory_service_sits_next_to_neo4j():
    memory = _compose()["services"]["memory"]
    assert memory["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert memory["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert all(port.startswith("127.0.0.1:") for port in memory["ports"])
    assert "/readyz" in " ".join(memory["healthcheck"]["test"])


def test_it_needs_a_token_and_a_password_with_no_default():
    environment = _compose()["services"]["memory"]["environment"]
    assert environment["MEMGRAPH_SERVICE_TOKEN"].startswith("${MEMGRAPH_SERVICE_TOKEN:?")
    assert environment["NEO4J_PASSWORD"].startswith("${NEO4J_PASSWORD:?")


def test_its_image_installs_extras_that_exist_and_serves_on_every_interface():
    dockerfile = _compose()["services"]["memory"]["build"]["dockerfile_inline"]
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    wanted = set(re.search(r'"\.\[([a-z,-]+)\]"', dockerfile).group(1).split(","))
    assert "service" in wanted and wanted <= extras
    for copied in re.findall(r"^COPY (.+) \./", dockerfile, re.M):
        for name in copied.split():
            assert (ROOT / name).exists(), name
    assert '"--host", "0.0.0.0"' in dockerfile
