"""The MCP server against a real Neo4j, through the SDK's own client: `memgraph-neo4j mcp` runs as a
separate process (stdio, and once streamable HTTP), exactly as Claude Desktop or an IDE would start it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402

TOOLS = {"search_memory", "write_memory", "get_provenance", "list_conflicts", "resolve_conflict"}
ADA = ("Ada Lovelace was born in London in 1815. She wrote the first published algorithm for "
       "Charles Babbage's Analytical Engine.")


def _env(connection) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.startswith("MEMGRAPH_")}
    env |= {"NEO4J_URI": connection.uri, "NEO4J_USERNAME": connection.username,
            "NEO4J_PASSWORD": connection.password, "NEO4J_DATABASE": connection.database}
    return env


def _server_args(*spaces: str) -> list[str]:
    return ["-m", "memgraph_neo4j.cli.main", "mcp", *[a for s in spaces for a in ("--space", s)]]


def run_client(connection, spaces: list[str], scenario: Callable[[Client], Awaitable[None]]) -> None:
    """`scenario(client)` against a fresh `memgraph-neo4j mcp` process on stdio."""
    params = StdioServerParameters(command=sys.executable, args=_server_args(*spaces), env=_env(connection))

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            await scenario(client)
    anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    """The one-line message of a call that must fail."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    [block] = result.content
    assert "\n" not in block.text and "Traceback" not in block.text
    return block.text


@pytest.fixture
def spaces(store):
    """Two spaces the server serves, and one it does not; all deleted afterwards."""
    names = [f"t_mcp_{uuid.uuid4().hex[:8]}_{suffix}" for suffix in ("a", "b", "other")]
    yield names
    for name in names:
        store.run_implicit("admin/delete_space", space=name)


def space_is_empty(store, space: str) -> bool:
    return not store.read("stats/space_exists", space=space)[0]["exists"]


def test_tools_are_listed_with_their_schemas(neo4j_connection, spaces):
    async def scenario(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOLS
        search = tools["search_memory"].input_schema
        assert search["required"] == ["query"]
        assert set(search["properties"]["method"]["enum"]) == {"memgraphrag", "hipporag2", "dense", "bm25", "hybrid",
                                                               "hybrid-expand", "hybrid-context", "hybrid-ppr", "dual"}
        assert (search["properties"]["top_k"]["minimum"], search["properties"]["top_k"]["default"]) == (1, 5)
        write = tools["write_memory"].input_schema
        assert "required" not in write and {"text", "turns", "title", "space"} <= set(write["properties"])
        assert write["$defs"]["Turn"]["required"] == ["speaker", "text"]
        assert tools["get_provenance"].input_schema["required"] == ["fact_id"]
        resolve = tools["resolve_conflict"].input_schema
        assert resolve["required"] == ["conflict_id", "action"]
        assert resolve["properties"]["action"]["enum"] == ["accept", "reject", "revert"]
        statuses = str(tools["list_conflicts"].input_schema["properties"]["status"])
        assert "needs_review" in statuses and "obsolete" in statuses
        for tool in tools.values():  # every tool says what it returns and which spaces it may touch
            assert tool.output_schema and tool.output_schema["properties"]
            assert f"Spaces: {spaces[0]}, {spaces[1]}" in tool.description
        assert tools["search_memory"].annotations.read_only_hint
        assert not tools["write_memory"].annotations.read_only_hint
    run_client(neo4j_connection, spaces[:2], scenario)


def test_write_then_search_with_provenance(neo4j_connection, store, spaces):
    first, second, _ = spaces

    async def scenario(client: Client) -> None:
        written = await call(client, "write_memory", text=ADA, title="Ada")
        assert (written["space"], written["title"], written["passages_new"]) == (first, "Ada", 1)
        assert written["facts"] >= 1
        again = await call(client, "write_memory", text=ADA, title="Ada")
        assert (again["doc_id"], again["passages_new"]) == (written["doc_id"], 0)  # content-hash ids

        found = await call(client, "search_memory", query="Where was Ada Lovelace born?", top_k=3)
        assert found["space"] == first and found["method"] == "memgraphrag"
        [top] = found["passages"]  # one passage in the space
        cited = (top["doc_id"], top["doc_title"], top["title"], top["source"])
        assert cited == (written["doc_id"], "Ada", "Ada", "mcp")
        assert "London" in top["text"] and top["score"] > 0
        born = next(f for f in found["facts"] if "born in London" in f["text"])
        assert born["evidence"][0]["passage_id"] == top["passage_id"]
        assert born["evidence"][0]["doc_id"] == written["doc_id"]
        assert any(e["name"] == "Ada Lovelace" for e in found["entities"])

        provenance = await call(client, "get_provenance", fact_id=born["id"])
        assert (provenance["head"], provenance["relation"], provenance["tail"]) == ("Ada Lovelace", "born_in", "London")
        [evidence] = provenance["evidence"]
        assert (evidence["passage_id"], evidence["doc_id"]) == (top["passage_id"], written["doc_id"])
        assert evidence["title"] == evidence["doc_title"] == "Ada"
        assert evidence["text"] == ADA and provenance["documents"] == [written["doc_id"]]
        assert provenance["state"] == born["state"] and provenance["state"] in ("pending", "active")
        assert provenance["instance_of"]["relation"] == "born_in"
        assert provenance["instance_of"]["state"] in ("candidate", "stable")
        assert provenance["lineage"]["extractor"] == "offline"
        assert {e["role"]: e["name"] for e in provenance["entities"]} == {"subject": "Ada Lovelace", "object": "London"}

        # a conversation goes to the second space only, one episode per turn
        turns = [{"speaker": "user", "text": "My sister Grace Hopper lives in Arlington.", "time": "2024-05-01"},
                 {"speaker": "assistant", "text": "Noted: Grace Hopper lives in Arlington."}]
        chat = await call(client, "write_memory", turns=turns, space=second)
        assert chat["space"] == second and chat["title"].startswith("user and assistant, session 1 (2024-05-01")
        assert (chat["passages"], chat["passages_new"]) == (2, 2)
        hits = await call(client, "search_memory", query="Where does Grace Hopper live?", space=second, method="dense")
        said = {p["text"]: p for p in hits["passages"]}  # an episode each, titled with its speaker and day
        said = said["[1 May 2024] user: My sister Grace Hopper lives in Arlington."]
        assert (said["title"], said["doc_id"]) == ("user, 2024-05-01", chat["doc_id"])
        assert all(p["doc_id"] != written["doc_id"] for p in hits["passages"])
    run_client(neo4j_connection, [first, second], scenario)
    assert not space_is_empty(store, first) and not space_is_empty(store, second)


def test_turns_are_written_as_the_api_writes_a_conversation(neo4j_connection, store, test_store, spaces, minilm):
    """write_memory(turns=...) stores episodes (speaker, time, SPOKEN_BY), the same graph node for node as
    MemoryGraph.ingest_conversations of the same turns; hybrid search titles them with speaker and time."""
    from test_conversation_surfaces import graph

    from memgraph_neo4j.api import MemoryGraph

    served, twin, _ = spaces
    turns = [{"speaker": "Caroline", "text": "I moved to Porto last week!", "time": "2023-05-08T13:56:00Z"},
             {"speaker": "Melanie", "text": "Congrats! How is Porto?"},
             {"speaker": "Caroline", "text": "Lovely. My sister Ana lives in Lisbon.", "time": "2023-05-08T14:02:00Z"}]

    async def scenario(client: Client) -> None:
        written = await call(client, "write_memory", turns=turns)
        assert (written["passages"], written["passages_new"]) == (3, 3)
        found = await call(client, "search_memory", query="Where did Caroline move?", method="hybrid", top_k=3)
        titles = {p["text"]: p["title"] for p in found["passages"]}
        assert titles["[13:56 on 8 May 2023] Caroline: I moved to Porto last week!"] == "Caroline, 2023-05-08 13:56"
        again = await call(client, "write_memory", turns=turns)
        assert (again["doc_id"], again["passages_new"]) == (written["doc_id"], 0)
    run_client(neo4j_connection, [served], scenario)
    with MemoryGraph(space=twin, store=store, embedder=minilm) as memory:
        for _ in range(2):  # as written through MCP: twice
            memory.ingest_conversations(turns)
    speakers = test_store.read("conversation/speakers", space=served)
    assert sorted(r["speaker"] for r in speakers) == ["Caroline", "Caroline", "Melanie"]
    assert graph(test_store, served) == graph(test_store, twin)


def test_a_contradiction_is_listed_and_resolved(neo4j_connection, spaces):
    space = spaces[0]

    async def scenario(client: Client) -> None:
        await call(client, "write_memory", text="Isaac Newton was born in Woolsthorpe.", title="Newton A")
        second = await call(client, "write_memory", text="Isaac Newton was born in Cambridge.", title="Newton B")
        assert second["conflicts_to_review"] == 1  # the offline rules do not guess which place is right
        listed = await call(client, "list_conflicts", status="needs_review")
        [conflict] = listed["conflicts"]
        assert conflict["type"] == "mutual_exclusion"
        facts = {f["text"]: f for f in conflict["facts"]}
        assert set(facts) == {"Isaac Newton born in Woolsthorpe", "Isaac Newton born in Cambridge"}
        assert {f["state"] for f in facts.values()} == {"active"}
        keep = facts["Isaac Newton born in Woolsthorpe"]["id"]
        drop = facts["Isaac Newton born in Cambridge"]["id"]

        provenance = await call(client, "get_provenance", fact_id=drop[:8])  # ids by a unique prefix
        assert provenance["id"] == drop and [c["id"] for c in provenance["conflicts"]] == [conflict["id"]]
        assert provenance["evidence"][0]["doc_title"] == "Newton B"

        message = await call_error(client, "resolve_conflict", conflict_id=conflict["id"], action="accept")
        # the rules proposed nothing: a person must choose, told in the tool's terms (an agent runs no CLI)
        assert message.startswith(f"resolve_conflict: conflict {conflict['id']} has no proposed verdicts: call "
                                  "resolve_conflict with action 'accept' and keep=FACT_ID (one of ")
        assert keep[:12] in message and "--keep" not in message
        accepted = await call(client, "resolve_conflict", conflict_id=conflict["id"][:8], action="accept",
                              keep=keep[:10])
        assert accepted["conflict"]["id"] == conflict["id"] and accepted["conflict"]["status"] == "resolved"
        states = {f["id"]: f["state"] for f in accepted["conflict"]["facts"]}
        assert states == {keep: "active", drop: "discarded"}
        assert (await call(client, "get_provenance", fact_id=drop))["state"] == "discarded"
        assert (await call(client, "list_conflicts", status="needs_review"))["conflicts"] == []

        reverted = await call(client, "resolve_conflict", conflict_id=conflict["id"], action="revert")
        assert reverted["conflict"]["status"] == "needs_review"
        assert {f["state"] for f in reverted["conflict"]["facts"]} == {"active"}
        message = await call_error(client, "resolve_conflict", conflict_id="nope", action="reject")
        assert message == ("resolve_conflict: conflict id 'nope' is too short: give at least 6 characters of it: "
                           "list_conflicts returns the conflict ids")
        message = await call_error(client, "resolve_conflict", conflict_id="ffffffffffff", action="reject")
        assert message == (f"resolve_conflict: no conflict 'ffffffffffff' in space {space!r}: list_conflicts "
                           "returns the conflict ids")
    run_client(neo4j_connection, [space], scenario)


def test_calls_outside_the_confinement_and_bad_arguments_fail_in_one_line(neo4j_connection, store, spaces):
    served, _, outside = spaces

    async def scenario(client: Client) -> None:
        message = await call_error(client, "write_memory", text=ADA, space=outside)
        assert message == (f"write_memory: space {outside!r} is not served here: this server is confined to "
                           f"{served!r} (whoever starts the server adds it with --space {outside})")
        for tool, arguments in (("search_memory", {"query": "Ada"}), ("list_conflicts", {}),
                                ("get_provenance", {"fact_id": "x"}),
                                ("resolve_conflict", {"conflict_id": "x", "action": "reject"})):
            assert "is not served here" in await call_error(client, tool, space=outside, **arguments)
        empty = await call_error(client, "search_memory", query="Ada")
        assert empty == f"search_memory: memory space {served!r} is empty: write_memory adds to it first"
        bad = await call_error(client, "search_memory", query="Ada", top_k=0)
        assert bad.startswith("search_memory: invalid arguments: top_k: Input should be greater than or equal to 1")
        assert "invalid arguments: method" in await call_error(client, "search_memory", query="Ada", method="magic")
        assert "not both" in await call_error(client, "write_memory", text="x",
                                              turns=[{"speaker": "a", "text": "b"}])
        assert "text is empty" in await call_error(client, "write_memory", text="   ")
        missing = await call_error(client, "get_provenance", fact_id="ffffff")
        assert missing == (f"get_provenance: no fact 'ffffff' in space {served!r}: search_memory and list_conflicts "
                           "return fact ids")
    run_client(neo4j_connection, [served], scenario)
    assert space_is_empty(store, outside) and space_is_empty(store, served)


def test_no_neo4j_stops_the_server_with_one_line(neo4j_connection):
    env = os.environ | _env(neo4j_connection) | {"NEO4J_URI": f"bolt://127.0.0.1:{_free_port()}"}
    ran = subprocess.run([sys.executable, *_server_args("notes")], env=env, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=300)
    assert ran.returncode == 1 and ran.stdout == ""  # stdout is the protocol's: nothing else goes there
    [line] = ran.stderr.strip().splitlines()
    assert line.startswith("error: no Neo4j answers at bolt://127.0.0.1:")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited: {process.stderr.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


def test_streamable_http(neo4j_connection, store, spaces):
    space, port = spaces[0], _free_port()
    process = subprocess.Popen([sys.executable, *_server_args(space), "--transport", "http", "--port", str(port)],
                               env=os.environ | _env(neo4j_connection), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, process)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=300) as client:
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                written = await call(client, "write_memory", text=ADA)
                found = await call(client, "search_memory", query="Analytical Engine", method="bm25")
                assert found["passages"][0]["doc_id"] == written["doc_id"]
        anyio.run(main)
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert not space_is_empty(store, space)
