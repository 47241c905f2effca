"""MCP at /mcp of the service, through the MCP SDK's client over streamable HTTP with a bearer token: what
write_memory writes, search_memory finds, and REST's search of the same space returns the same passages;
what a REST job writes, search_memory finds next (one pool of warm copies behind both)."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import pytest
from service_harness import new_service, running

from memgraph_neo4j.service.auth import Grant, Right, TokenTable, hash_token

pytest.importorskip("mcp")
httpx2 = pytest.importorskip("httpx2")

from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

TOKEN = "mcp-admin-" + "t" * 20
ADA = "Ada Lovelace was born in London in 1815. She worked with Charles Babbage on the Analytical Engine."
TURING = "Alan Turing was born in Maida Vale. Turing worked at Bletchley Park during the war."


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content


def test_mcp_and_rest_share_one_warm_pool(space, store, minilm, test_settings, tmp_path):
    tokens = TokenTable([(hash_token(TOKEN), Grant("agent", None, frozenset({Right.WRITE})))])
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with running(new_service(test_settings, store, minilm, tmp_path / "jobs", tokens=tokens)) as url, \
            httpx.Client(base_url=url, timeout=120, headers=headers) as http:

        def rest_search(query: str) -> list[tuple[str, float]]:
            found = http.post(f"/v1/spaces/{space}/search", json={"query": query})
            assert found.status_code == 200, found.text
            return [(p["id"], p["score"]) for p in found.json()["passages"]]

        async def scenario() -> None:
            transport = streamable_http_client(f"{url}/mcp", http_client=httpx2.AsyncClient(headers=headers,
                                                                                            timeout=120))
            async with Client(transport, read_timeout_seconds=120) as client:
                written = await call(client, "write_memory", text=ADA, title="Ada", space=space)
                assert written["space"] == space and written["passages_new"] == 1 and written["facts"] >= 1
                found = await call(client, "search_memory", query="Where was Ada Lovelace born?", space=space)
                [top] = found["passages"]
                assert top["doc_id"] == written["doc_id"] and "London" in top["text"]
                by_mcp = [(p["passage_id"], p["score"]) for p in found["passages"]]
                by_rest = await anyio.to_thread.run_sync(rest_search, "Where was Ada Lovelace born?")
                assert [i for i, _ in by_rest] == [i for i, _ in by_mcp]
                assert all(abs(a - b) <= 1e-6 for (_, a), (_, b) in zip(by_rest, by_mcp, strict=True))

                job = await anyio.to_thread.run_sync(lambda: http.post(
                    f"/v1/spaces/{space}/texts", params={"wait": True}, json={"text": TURING, "title": "Turing"}))
                assert job.json()["status"] == "done", job.text
                after = await call(client, "search_memory", query="Where did Alan Turing work?", space=space)
                assert "Bletchley Park" in after["passages"][0]["text"]
                assert after["passages"][0]["title"] == "Turing"
                by_rest = await anyio.to_thread.run_sync(rest_search, "Where did Alan Turing work?")
                assert [i for i, _ in by_rest] == [p["passage_id"] for p in after["passages"]]

        anyio.run(scenario)
