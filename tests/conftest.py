"""One Neo4j + GDS server per test session, chosen in this order:

1. NEO4J_URI is set        -> that server (NEO4J_USERNAME / NEO4J_PASSWORD);
2. a Docker engine answers -> pytest-docker brings up docker-compose.yml;
3. otherwise               -> the local launcher starts a dedicated test instance
                              (MEMGRAPH_HOME/test-instance, ports 17687/17474) and stops it after.

Tests are isolated by memory space: each gets a unique `space` and everything in it is deleted
afterwards.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from memgraph_neo4j.config import Connection, Settings
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval.projection import space_prefix
from memgraph_neo4j.store import CypherLibrary, GraphStore

ROOT = Path(__file__).resolve().parent.parent
# every test reads its copies from Neo4j (they count whole reads) unless it keeps them on disk itself
# (tests/integration/test_persisted_copies.py): no copies carried over from another test or session
os.environ["MEMGRAPH_COPIES_DIR"] = "off"
TEST_BOLT_PORT = int(os.environ.get("MEMGRAPH_TEST_BOLT_PORT", "17687"))
TEST_HTTP_PORT = int(os.environ.get("MEMGRAPH_TEST_HTTP_PORT", "17474"))
COMPOSE_PASSWORD = os.environ.get("NEO4J_PASSWORD") or secrets.token_hex(16)  # no default password


def _pid_alive(pid: int) -> bool:
    from memgraph_neo4j.server.process import pid_alive

    return pid_alive(pid)


def _docker_engine() -> bool:
    if os.environ.get("MEMGRAPH_TEST_NO_DOCKER") or shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def docker_compose_file() -> str:
    return str(ROOT / "docker-compose.yml")


@pytest.fixture(scope="session")
def docker_setup() -> list[str]:
    os.environ["NEO4J_PASSWORD"] = COMPOSE_PASSWORD  # docker-compose.yml requires one
    return ["up --build --wait"]


@pytest.fixture(scope="session")
def test_settings() -> Settings:
    return Settings(bolt_port=TEST_BOLT_PORT, http_port=TEST_HTTP_PORT)


@pytest.fixture(scope="session")
def local_server(test_settings):
    """The launcher-managed test instance (None when tests use NEO4J_URI or Docker)."""
    if os.environ.get("NEO4J_URI") or _docker_engine():
        yield None
        return
    from memgraph_neo4j.server.launcher import LocalNeo4j

    server = LocalNeo4j(test_settings, instance_dir=Path(test_settings.home) / "test-instance")
    # Several pytest sessions (CI beside a developer's run) may share the instance: each registers
    # its pid, and the last one out stops the server, only if a test session started it. "Whoever
    # started it stops it" once stopped the server under another session still running.
    users = server.instance / "test-sessions"
    users.mkdir(parents=True, exist_ok=True)
    marker = users / "started-by-tests"
    (users / str(os.getpid())).touch()
    if server.running_pid() is None:
        marker.touch()
    server.start()
    yield server
    (users / str(os.getpid())).unlink(missing_ok=True)
    alive = [p for p in users.iterdir() if p.name.isdigit() and _pid_alive(int(p.name))]
    if not alive and marker.exists():
        marker.unlink(missing_ok=True)
        server.stop()


@pytest.fixture(scope="session")
def neo4j_connection(request, local_server) -> Connection:
    if os.environ.get("NEO4J_URI"):
        return Connection(uri=os.environ["NEO4J_URI"], username=os.environ.get("NEO4J_USERNAME", "neo4j"),
                          password=os.environ.get("NEO4J_PASSWORD", ""),
                          database=os.environ.get("NEO4J_DATABASE", "neo4j"))
    if local_server is not None:
        return Connection(uri=local_server.bolt_uri, password=local_server.password())
    services = request.getfixturevalue("docker_services")
    ip = request.getfixturevalue("docker_ip")
    port = services.port_for("neo4j", 7687)
    os.environ.setdefault("MEMGRAPH_COMPOSE_HTTP", f"http://{ip}:{services.port_for('neo4j', 7474)}")
    return Connection(uri=f"bolt://{ip}:{port}", password=COMPOSE_PASSWORD)


@pytest.fixture(scope="session")
def http_url(neo4j_connection, local_server) -> str:
    if local_server is not None:
        return local_server.http_url
    return os.environ.get("MEMGRAPH_COMPOSE_HTTP") or os.environ.get("NEO4J_HTTP_URL", "http://127.0.0.1:7474")


@pytest.fixture(scope="session")
def store(neo4j_connection, test_settings) -> GraphStore:
    graph_store = GraphStore.connect(neo4j_connection)
    graph_store.init_schema(test_settings.embedding_dimension)
    yield graph_store
    try:  # projections of test spaces (t_...) whose space is gone go with the session; those of spaces that
        # still exist stay: another pytest session on the shared instance may be searching them (dropping every
        # mg_t_ projection here failed a concurrent session's test with GraphNotFoundException)
        live = {row["space"] for row in graph_store.read("admin/list_spaces")}
        names = graph_store.with_library(CypherLibrary(Path(__file__).parent / "cypher")).read("test_graph_names")
        for name in (row["graphName"] for row in names):
            if not any(name.startswith(space_prefix(space)) for space in live):
                graph_store.write("admin/drop_graph", name=name)
    finally:
        graph_store.close()


@pytest.fixture(scope="session")
def test_cypher() -> CypherLibrary:
    """Statements that only tests run (fixtures of hand-made graphs), in tests/cypher/."""
    return CypherLibrary(Path(__file__).parent / "cypher")


@pytest.fixture(scope="session")
def test_store(store, test_cypher) -> GraphStore:
    return store.with_library(test_cypher)


@pytest.fixture
def space(store) -> str:
    name = f"t_{uuid.uuid4().hex[:10]}"
    yield name
    # the space's PPR projections too: left in the GDS catalog, a session's hundreds of them filled the
    # server's heap until it stopped with OutOfMemoryError
    delete_space(store, name, re.escape(space_prefix(name)) + r"\d+_p.*")


@pytest.fixture(scope="session")
def minilm():
    from memgraph_neo4j.embeddings import make_embedder

    return make_embedder("minilm")


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = Path(os.environ.get("MEMGRAPH_TEST_ARTIFACTS", ROOT / "tests" / "artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path
