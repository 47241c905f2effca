"""`memgraph-neo4j mcp --transport http` says where it listens, and tells clients its version: one line on
stderr once the port accepts connections (nothing on stdout), and serverInfo.version in the initialize
reply, through the SDK's client and a raw streamable-HTTP request. Loopback only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.request

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from test_mcp import _env, _free_port, _server_args  # noqa: E402

import memgraph_neo4j  # noqa: E402


def _first_line(process: subprocess.Popen, timeout: float = 120.0) -> str:
    """The first line the server writes on stderr, or "" when it says nothing in `timeout` seconds."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stderr.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else ""


def _initialize_raw(url: str) -> dict:
    """A bare JSON-RPC initialize over streamable HTTP (the reply is JSON or one SSE event)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                  "clientInfo": {"name": "test", "version": "0"}}}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=60) as response:
        text = response.read().decode()
    data = next((line[5:] for line in text.splitlines() if line.startswith("data:")), text)
    return json.loads(data)["result"]


def test_http_prints_where_it_listens_and_serves_the_package_version(neo4j_connection, space):
    port = _free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    process = subprocess.Popen([sys.executable, *_server_args(space, "other_space"), "--transport", "http",
                                "--port", str(port)], env=os.environ | _env(neo4j_connection),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = _first_line(process)  # written once the port accepts connections
        assert url in line and "streamable HTTP" in line, line
        assert f"spaces: {space}, other_space" in line, line
        # the line promised a listening port: the first request goes through, no retry loop
        assert _initialize_raw(url)["serverInfo"]["version"] == memgraph_neo4j.__version__

        async def main() -> str:
            async with Client(url, read_timeout_seconds=120) as client:
                return client.server_info.version
        assert anyio.run(main) == memgraph_neo4j.__version__
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    assert out == ""  # stdout stays silent, as on stdio
    assert "Traceback" not in err
