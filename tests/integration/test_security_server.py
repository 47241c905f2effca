"""Security on the running system: the local server listens on 127.0.0.1 only, its password file is
private, and an MCP server's write tool cannot reach a space it was not started with."""

from __future__ import annotations

import socket
import stat
import uuid

import pytest

from memgraph_neo4j.api import MemoryGraph


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
