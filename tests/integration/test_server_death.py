"""The Neo4j server SIGKILLed under `memgraph-neo4j ingest`: the command ends within 30 s, non-zero, with
one line on stderr that names the server (no retry warnings of the driver, no progress bar). On a Neo4j
instance of this test alone (ports 21687 / 21474), never the shared test server."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from memgraph_neo4j.config import Connection, Settings
from memgraph_neo4j.store import CypherLibrary, GraphStore

TEST_CYPHER = CypherLibrary(Path(__file__).parent.parent / "cypher")
BOLT_PORT, HTTP_PORT = 21687, 21474
NAMES = ["Alice Smith", "Bruno Rossi", "Chiara Novak", "Dmitri Tanaka", "Elena Okafor", "Farid Larsen"]


@pytest.fixture
def own_server(local_server, test_settings, tmp_path_factory):
    if local_server is None:
        pytest.skip("killing the server needs the launcher-managed local instance (not NEO4J_URI or Docker)")
    from memgraph_neo4j.server.launcher import LocalNeo4j

    settings = Settings(home=test_settings.home, bolt_port=BOLT_PORT, http_port=HTTP_PORT, heap="512m",
                        pagecache="128m")
    server = LocalNeo4j(settings, instance_dir=tmp_path_factory.mktemp("server-death"))
    server.start(progress=lambda *_: None)
    try:
        yield server
    finally:
        server.stop()


def corpus(folder: Path, documents: int = 300) -> Path:
    rng = random.Random(0)
    folder.mkdir()
    for i in range(documents):
        (folder / f"d{i}.txt").write_text(" ".join(
            f"{rng.choice(NAMES)} worked with {rng.choice(NAMES)} at Company{rng.randint(0, 50)} in {1700 + i}."
            for _ in range(30)))
    return folder


@pytest.mark.parametrize("scheme", ["bolt", "neo4j"])
def test_ingest_ends_within_30s_with_one_line_when_its_server_is_killed(own_server, tmp_path, scheme):
    uri = own_server.bolt_uri.replace("bolt://", f"{scheme}://")
    space = f"t_death_{uuid.uuid4().hex[:8]}"
    env = dict(os.environ, NEO4J_URI=uri, NEO4J_USERNAME="neo4j", NEO4J_PASSWORD=own_server.password())
    proc = subprocess.Popen([sys.executable, "-m", "memgraph_neo4j.cli.main", "ingest",
                             str(corpus(tmp_path / "docs")), "--space", space, "--batch-size", "8"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with GraphStore.connect(Connection(uri=own_server.bolt_uri, password=own_server.password())) as store:
        deadline = time.monotonic() + 240
        # mid-ingest: its first batches are written
        while store.with_library(TEST_CYPHER).read("space_node_count", space=space)[0]["nodes"] < 50:
            assert proc.poll() is None, proc.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "the ingest wrote nothing in 240 s"
            time.sleep(0.2)
    os.kill(own_server.running_pid(), signal.SIGKILL)
    killed = time.monotonic()
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    took = time.monotonic() - killed
    lines = [line for line in err.splitlines() if line.strip()]
    assert proc.returncode not in (0, None, -signal.SIGKILL)
    assert took < 30, f"{took:.0f} s after the kill:\n{err[-3000:]}"
    assert len(lines) == 1, err[-3000:]
    assert f"Neo4j at {uri}" in lines[0] and "stopped answering" in lines[0] and "run the command again" in lines[0]
