"""Security on the running system: the local server listens on 127.0.0.1 only, its instance folder
(password, database files, logs) is the owner's only, the initial password is never on a command line,
and an MCP server's write tool cannot reach a space it was not started with."""

from __future__ import annotations

import os
import socket
import stat
import threading
import uuid
from pathlib import Path

import pytest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import Settings
from memgraph_neo4j.server.launcher import LocalNeo4j

PRIVATE_PORTS = (27697, 27498)


def test_the_local_server_listens_on_127_0_0_1_only(local_server):
    if local_server is None:
        pytest.skip("the tests use NEO4J_URI or Docker, not the local launcher")
    conf = (local_server.instance / "conf" / "neo4j.conf").read_text()
    settings = dict(line.split("=", 1) for line in conf.splitlines() if "=" in line and not line.startswith("#"))
    for key in ("server.default_listen_address", "server.bolt.listen_address", "server.http.listen_address"):
        assert settings[key].split(":")[0] == "127.0.0.1", key
    assert "server.https.enabled" not in settings or settings["server.https.enabled"] == "false"
    listening = _listening(local_server.bolt_port) | _listening(local_server.http_port)
    assert listening and listening <= {"127.0.0.1", "::ffff:127.0.0.1"}, listening
    assert stat.S_IMODE(local_server.password_file.stat().st_mode) == 0o600


def _listening(port: int) -> set[str]:
    """Local addresses with a socket listening on `port` (/proc/net/tcp and tcp6, state 0A)."""
    found = set()
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state != "0A" or int(hex_port, 16) != port:
                continue
            raw = bytes.fromhex(address)
            if family == socket.AF_INET:
                found.add(socket.inet_ntop(family, raw[::-1]))
            else:  # four little-endian 32-bit words
                words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                found.add(socket.inet_ntop(family, words))
    return found


def test_the_mcp_write_tool_is_confined_to_its_spaces(store, test_store, minilm, space):
    pytest.importorskip("mcp")
    from memgraph_neo4j.mcp.spaces import SpaceError, SpacePool
    from memgraph_neo4j.mcp.tools import MemoryTools

    outside = f"t_outside_{uuid.uuid4().hex[:8]}"
    with MemoryGraph(space=outside, store=store, embedder=minilm) as memory:
        memory.ingest("Grace Hopper developed COBOL.", progress=False)
    before = test_store.read("space_snapshot", space=outside)
    pool = SpacePool([space], store=store, embedder=minilm)
    tools = MemoryTools(pool)
    try:
        for name in (outside, "default", f"{space} ", space.upper()):
            with pytest.raises(SpaceError, match=r"is not served here: this server is confined to "):
                tools.write_memory(text="Ada Lovelace was born in London.", space=name)
        assert tools.write_memory(text="Ada Lovelace was born in London.").space == space
        assert test_store.read("space_snapshot", space=outside) == before  # nothing reached the other space
    finally:
        pool.close()
        store.run_implicit("admin/delete_space", space=outside)


def _command_lines() -> set[str]:
    """Every process's command line, as `ps` shows it to any local user."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found.add((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
            except OSError:
                continue
    return found


def _loose_modes(instance: Path) -> list[str]:
    """Paths under `instance` (itself included) other users could read or enter."""
    loose = []
    for root, _, files in os.walk(instance):
        for path, wanted in [(root, 0o700)] + [(os.path.join(root, f), 0o600) for f in files]:
            mode = stat.S_IMODE(os.lstat(path).st_mode)
            if not os.path.islink(path) and mode != wanted:
                loose.append(f"{path} {oct(mode)}")
    return loose


def test_the_instance_is_private_and_the_password_never_on_a_command_line(tmp_path):
    server = LocalNeo4j(Settings(bolt_port=PRIVATE_PORTS[0], http_port=PRIVATE_PORTS[1], heap="512m",
                                 pagecache="64m"), instance_dir=tmp_path / "private")
    seen: set[str] = set()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            seen.update(_command_lines())
            done.wait(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        server.start(timeout=300)
    finally:
        done.set()
        watcher.join()
    try:
        password = server.password()
        assert any("org.neo4j.cli.AdminTool" in line for line in seen)  # the watch saw the admin tool run
        assert not [line for line in seen if password in line]
        auth = server.instance / "data" / "dbms" / "auth.ini"
        stores = list((server.instance / "data" / "databases").rglob("neostore*")) + [auth]
        assert len(stores) > 1 and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in stores)
        assert _loose_modes(server.instance) == []  # folders 0700, files 0600, Neo4j's own files too
        assert not list((server.instance / "run").glob("*.args"))  # the password's argument file is gone
        server.stop()
        # an instance from before (or loosened by hand) is made private again at its next start
        for root, dirs, files in os.walk(server.instance):
            os.chmod(root, 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)
        server.start(timeout=300)
        assert _loose_modes(server.instance) == []
    finally:
        server.stop()
