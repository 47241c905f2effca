"""MCP over HTTP and its bearer token: an address beyond loopback is refused without one; with one, every
request must carry it (401 otherwise), through the SDK's client and raw HTTP. Everything listens on and
talks to 127.0.0.1 only: the refusal is checked before anything is served."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402
from test_mcp import TOOLS, _env, _free_port, _server_args, _wait_for_port  # noqa: E402

TOKEN = "s3cret-token-for-tests"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "memory.example.org"])
def test_http_beyond_loopback_without_a_token_is_refused(neo4j_connection, host):
    # NEO4J_URI at a closed port: were the check missing, the server would stop at Neo4j, never serve
    env = os.environ | _env(neo4j_connection) | {"NEO4J_URI": f"bolt://127.0.0.1:{_free_port()}"}
    env.pop("MEMGRAPH_MCP_TOKEN", None)
    ran = subprocess.run([sys.executable, *_server_args("notes"), "--transport", "http", "--host", host,
                          "--port", str(_free_port())], env=env, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=300)
    assert ran.returncode == 1, ran.stderr
    [line] = ran.stderr.strip().splitlines()
    assert f"--host {host}" in line and "--token" in line and "MEMGRAPH_MCP_TOKEN" in line


def _post(url: str, token: str | None) -> int:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _list_tools(url: str, token: str | None) -> set[str]:
    async def main() -> set[str]:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        transport = streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
        async with Client(transport, read_timeout_seconds=120) as client:
            return {t.name for t in (await client.list_tools()).tools}
    return anyio.run(main)


@pytest.mark.parametrize("via", ["option", "env"])
def test_every_request_needs_the_token(neo4j_connection, space, via):
    port = _free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    args = ["--token", TOKEN] if via == "option" else []
    env = os.environ | _env(neo4j_connection) | ({"MEMGRAPH_MCP_TOKEN": TOKEN} if via == "env" else {})
    process = subprocess.Popen([sys.executable, *_server_args(space), "--transport", "http", "--host", "127.0.0.1",
                                "--port", str(port), *args], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, process)
        assert _post(url, None) == 401
        assert _post(url, "wrong") == 401
        assert _post(url, TOKEN[:-1]) == 401
        assert _post(url, TOKEN) != 401
        assert _list_tools(url, TOKEN) == TOOLS
        with pytest.raises(BaseException):  # noqa: B017 - the SDK's client raises an exception group
            _list_tools(url, "wrong")
    finally:
        process.terminate()
        process.wait(timeout=30)
