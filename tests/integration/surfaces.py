"""What tests/integration/test_surface_parity.py compares: results of the API, the CLI and MCP reduced to the
fields they share, the graph of a space comparable across spaces, one MCP session driven from synchronous
tests, and the stub chat model every surface can be pointed at."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

SCORE = 1e-6  # scores agree to this: the same numbers behind every surface (float32 vector scores included)
VECTOR = 1e-6  # an embedding made in another process (MCP's) may differ in its last float32 bit
# what two spaces written from the same input differ in (test_conversation_surfaces.VOLATILE, and the times
# adjudication and review write)
VOLATILE = {"space", "created_at", "activated_at", "promoted_at", "updated_at", "epoch", "ingested_at",
            "checked_at", "detected_at", "resolved_at", "reviewed_at", "reverted_at", "retracted_at", "unmerged_at"}


def plain(value: Any) -> Any:
    """A dataclass, pydantic model, or a list or dict of them, as the JSON the CLI prints of it."""
    def unpack(value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return [unpack(v) for v in value]
        if isinstance(value, dict):
            return {k: unpack(v) for k, v in value.items()}
        if dataclasses.is_dataclass(value):
            return unpack({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
        return value.model_dump(mode="json") if hasattr(value, "model_dump") else value
    return json.loads(json.dumps(unpack(value), default=str))  # int keys as text, as JSON has them


def timeless(value: Any) -> Any:
    """A report without its timings ("seconds", at any depth): what two runs of one change share."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k != "seconds"}
    return [timeless(v) for v in value] if isinstance(value, list) else value


# ----- graphs --------------------------------------------------------------------------------------------
def graph(test_store, space: str, drop: dict[str, set[str]] | None = None) -> tuple[list[str], dict[str, list]]:
    """The space's nodes and relationships (ids are content hashes, equal across spaces), and the nodes'
    embeddings apart. `drop`: properties left out per label."""
    rows, vectors = [], {}
    for r in test_store.read("conversation/space_graph", space=space):
        left_out = VOLATILE | {"embedding"} | set().union(*((drop or {}).get(x, set()) for x in r["labels"]))
        if "embedding" in r["props"]:
            vectors[f"{r['labels']} {r['props'].get('id')}"] = r["props"]["embedding"]
        rows.append(json.dumps([r["kind"], sorted(r["labels"]), {k: v for k, v in r["props"].items()
                                                                 if k not in left_out}, r["start"], r["end"]],
                               sort_keys=True, default=str))
    return sorted(rows), vectors


def same_graph(got: tuple[list[str], dict], expected: tuple[list[str], dict], what: str) -> None:
    assert expected[0], what  # two empty spaces would agree trivially
    if got[0] != expected[0]:  # the rows that differ, not two lists of hundreds
        missing, extra = sorted(set(expected[0]) - set(got[0])), sorted(set(got[0]) - set(expected[0]))
        raise AssertionError(f"{what}: graphs differ\n- " + "\n- ".join(missing[:10]) + "\n+ " +
                             "\n+ ".join(extra[:10]))
    assert got[1].keys() == expected[1].keys(), what
    for key, vector in expected[1].items():
        assert got[1][key] == pytest.approx(vector, abs=VECTOR), (what, key)


# ----- search --------------------------------------------------------------------------------------------
def ranked(hits: list[dict], key: str = "id") -> list[tuple[str, float]]:
    return [(h[key], h["score"]) for h in hits]


def search_of(result: Any, surface: str) -> dict[str, Any]:
    """A search result as every surface returns it: the ranked passages, facts and entities with their
    scores, the method and whether plain dense search answered (MCP calls a passage's id `passage_id`)."""
    result = plain(result)
    return {"passages": ranked(result["passages"], "passage_id" if surface == "mcp" else "id"),
            "facts": ranked(result["facts"]), "entities": ranked(result["entities"]),
            "other": (result["method"], result["fallback"])}


def same_search(results: dict[str, dict], what: str) -> None:
    base = results["api"]
    assert base["passages"], what  # a search that found nothing would agree trivially
    for surface, result in results.items():
        for part in ("passages", "facts", "entities"):
            got, expected = result[part], base[part]
            assert [i for i, _ in got] == [i for i, _ in expected], (what, surface, part)
            assert [s for _, s in got] == pytest.approx([s for _, s in expected], abs=SCORE), (what, surface, part)
        assert result["other"] == base["other"], (what, surface)


# ----- conflicts and provenance ------------------------------------------------------------------------------
def conflict_of(detail: Any) -> dict[str, Any]:
    """A conflict as every surface shows it: the API and the CLI give the ConflictDetail (the CLI as JSON),
    MCP its ConflictOutput, which has these fields of it (not `review` and `pairs`)."""
    detail = plain(detail)
    facts = sorted((f["id"], f["text"], f["state"], f["proposed"], f["applied"]) for f in detail["facts"])
    return {k: detail[k] for k in ("id", "type", "status", "confidence", "reason", "rationale", "model")} | {
        "facts": facts}


def provenance_of(found: Any, surface: str) -> dict[str, Any]:
    """A fact's provenance: the API's FactProvenance, MCP's ProvenanceOutput (the schema as `instance_of`,
    the evidence passages with the Source fields)."""
    found = plain(found)
    schema = found["instance_of"] if surface == "mcp" else found["schema"]
    evidence = [{k: p.get(k) for k in ("passage_id", "title", "doc_id", "doc_title", "source", "text")}
                for p in found["evidence"]]
    same = ("id", "text", "head", "relation", "tail", "time", "state", "checked", "qualifiers", "entities",
            "lineage", "evidence_count")
    conflicts = [{k: c.get(k) for k in ("id", "type", "status", "proposed", "applied")} for c in found["conflicts"]]
    return {k: found[k] for k in same} | {"schema": schema and {k: v for k, v in schema.items() if v is not None},
                                          "evidence": evidence, "conflicts": conflicts}


# ----- MCP -----------------------------------------------------------------------------------------------
@contextmanager
def mcp_session(env: dict[str, str], spaces: list[str]) -> Iterator[Any]:
    """`call(tool, **arguments) -> structured result` on one `memgraph-neo4j mcp` process (stdio, the SDK's
    client), usable from synchronous tests: the client lives in a portal's event loop."""
    from anyio.from_thread import start_blocking_portal
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, env=env, args=[
        "-m", "memgraph_neo4j.cli.main", "mcp", *[a for s in spaces for a in ("--space", s)]])
    with start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(Client(params, read_timeout_seconds=300)) as client:
        def call(tool: str, **arguments: Any) -> dict[str, Any]:
            result = portal.call(client.call_tool, tool, arguments)
            assert not result.is_error, (tool, arguments, result.content[0].text)
            return result.structured_content
        yield call


# ----- the stub chat model -------------------------------------------------------------------------------------
def scripted(body: dict) -> str:
    """What the stub answers, from the prompt alone: an answer citing P1 and P2; categories of four
    consecutive items; of the categories shown, the one whose name sorts first."""
    system, user = (m["content"] for m in body["messages"])
    if system.startswith("You organise a memory into categories"):
        numbers = [int(n) for n in re.findall(r"^\[(\d+)\]", user, re.M)]
        groups = [numbers[i:i + 4] for i in range(0, len(numbers), 4)]
        return json.dumps({"categories": [{"name": f"Group {g[0]}-{g[-1]}", "summary": f"items {g}",
                                           "members": g} for g in groups if len(g) > 1]})
    if system.startswith("You find where a memory holds"):
        labels = dict(re.findall(r"^\[(\d+)\] ([^:\n]*)", user, re.M))
        return json.dumps({"selected": [int(min(labels, key=labels.get))], "all": False})
    return json.dumps({"answer": "As the memory says.", "citations": ["P1", "P2"]})


@contextmanager
def stub_model() -> Iterator[str]:
    """A local OpenAI-compatible server answering `scripted`: its base URL."""
    from test_ingest_exit_codes import _Handler, _Stub

    server = _Stub(("127.0.0.1", 0), _Handler)
    server.mode, server.route = "route", scripted
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
