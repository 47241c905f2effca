"""Bearer tokens against a real uvicorn and Neo4j: 401 without a known token, 403 beyond a token's right or
spaces, lists filtered to what a token sees, /mcp only for a token with write on every space; and
`serve --host 0.0.0.0` without tokens refused in one line before connecting to anything."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest
from service_harness import free_port, module_spaces, new_service, running

from memgraph_neo4j.service.auth import Grant, Right, TokenTable, hash_token
from memgraph_neo4j.service.run import make_service

READER, WRITER, ADMIN = ("reader-" + "r" * 20, "writer-" + "w" * 20, "admin-" + "a" * 20)
TEXT = "Ada Lovelace was born in London in 1815."
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "0"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


spaces = module_spaces


@pytest.fixture(scope="module")
def url(test_settings, store, minilm, spaces, tmp_path_factory):
    a, _ = spaces
    table = TokenTable([(hash_token(READER), Grant("reader", frozenset({a}), frozenset({Right.READ}))),
                        (hash_token(WRITER), Grant("writer", frozenset({a}), frozenset({Right.WRITE}))),
                        (hash_token(ADMIN), Grant("admin", None, frozenset({Right.ADMIN})))])
    service = new_service(test_settings, store, minilm, tmp_path_factory.mktemp("auth") / "jobs", tokens=table)
    with running(service) as base:
        yield base


def write(http: httpx.Client, space: str, token: str) -> httpx.Response:
    return http.post(f"/v1/spaces/{space}/texts", params={"wait": True}, json={"text": TEXT}, headers=bearer(token))


def test_no_token_or_a_wrong_one_is_401_with_www_authenticate(url, spaces):
    a, _ = spaces
    with httpx.Client(base_url=url, timeout=60) as http:
        for headers in ({}, bearer("not-a-token-of-this-service"), {"Authorization": f"Basic {READER}"}):
            for answer in (http.get(f"/v1/spaces/{a}/documents", headers=headers),
                           http.get("/v1/jobs", headers=headers),
                           http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | headers)):
                assert answer.status_code == 401, (answer.request.url, answer.text)
                assert answer.headers["www-authenticate"] == "Bearer"
                assert "Authorization: Bearer" in answer.json()["detail"]


def test_each_token_does_only_what_its_right_and_spaces_allow(url, spaces):
    a, b = spaces
    with httpx.Client(base_url=url, timeout=120) as http:
        refused = write(http, a, READER)
        assert refused.status_code == 403
        assert refused.json()["detail"] == f"token 'reader' may not write space '{a}': it has read on {a}"
        assert write(http, a, WRITER).json()["status"] == "done"
        outside = write(http, b, WRITER)
        assert outside.status_code == 403 and f"may not write space '{b}'" in outside.json()["detail"]
        assert http.get(f"/v1/spaces/{b}/documents", headers=bearer(WRITER)).status_code == 403
        assert write(http, b, ADMIN).json()["status"] == "done"

        found = http.post(f"/v1/spaces/{a}/search", json={"query": "Where was Ada born?"}, headers=bearer(READER))
        assert found.status_code == 200 and found.json()["passages"]
        assert http.post(f"/v1/spaces/{b}/search", json={"query": "Ada"},
                         headers=bearer(READER)).status_code == 403

        # spaces and jobs: each token lists only its spaces
        assert [s["name"] for s in http.get("/v1/spaces", headers=bearer(READER)).json()] == [a]
        assert {a, b} <= {s["name"] for s in http.get("/v1/spaces", headers=bearer(ADMIN)).json()}
        jobs = {token: {(j["space"], j["id"]) for j in http.get("/v1/jobs", headers=bearer(token)).json()}
                for token in (READER, WRITER, ADMIN)}
        assert {s for s, _ in jobs[READER]} == {s for s, _ in jobs[WRITER]} == {a}
        assert {s for s, _ in jobs[ADMIN]} == {a, b} and jobs[READER] < jobs[ADMIN]
        [(_, job_of_b)] = jobs[ADMIN] - jobs[READER]
        assert http.get(f"/v1/jobs/{job_of_b}", headers=bearer(WRITER)).status_code == 403
        assert http.delete(f"/v1/jobs/{job_of_b}", headers=bearer(WRITER)).status_code == 403

        # deleting a space takes admin
        assert http.delete(f"/v1/spaces/{a}", headers=bearer(WRITER)).status_code == 403
        deleted = http.delete(f"/v1/spaces/{b}", headers=bearer(ADMIN))
        assert deleted.status_code == 200 and deleted.json()["space"] == b
        assert b not in {s["name"] for s in http.get("/v1/spaces", headers=bearer(ADMIN)).json()}
        assert a in {s["name"] for s in http.get("/v1/spaces", headers=bearer(ADMIN)).json()}


def test_mcp_takes_a_token_with_write_on_every_space(url):
    with httpx.Client(base_url=url, timeout=60) as http:
        for token, name in ((READER, "reader"), (WRITER, "writer")):
            refused = http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | bearer(token))
            assert refused.status_code == 403 and f"token {name!r} may not write every space" in refused.text
        admitted = http.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | bearer(ADMIN))
        assert admitted.status_code == 200 and "serverInfo" in admitted.text


def test_serve_beyond_loopback_without_tokens_is_refused_before_connecting(tmp_path, neo4j_connection, test_settings,
                                                                          store, minilm):
    nobody = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there: a connection would fail otherwise
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMGRAPH_SERVICE_", "NEO4J_"))}
    env |= {"NEO4J_URI": nobody, "NEO4J_PASSWORD": "x", "MEMGRAPH_SERVICE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.entry", "serve", "--host", "0.0.0.0",
                           "--port", str(free_port())], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "--host 0.0.0.0 serves the memory beyond this machine" in done.stderr
    assert "MEMGRAPH_SERVICE_TOKEN" in done.stderr and "127.0.0.1" in done.stderr
    assert not (tmp_path / "jobs").exists()

    # with MEMGRAPH_SERVICE_TOKEN the same bind is taken
    tokens = TokenTable.load(None, {"MEMGRAPH_SERVICE_TOKEN": ADMIN})
    service = make_service(test_settings, tokens=tokens, host="0.0.0.0", store=store, embedder=minilm,
                           spool=tmp_path / "jobs", mcp=False)
    assert service.host == "0.0.0.0" and len(service.tokens) == 1
    assert service.tokens.grant_for(ADMIN).has(Right.ADMIN)
