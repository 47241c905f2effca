"""`memgraph-neo4j ingest --extractor openai` against a local OpenAI-compatible stub (no real model): a run
whose every chunk failed (401, 500, an answer that is not JSON) exits 1, one whose chunks partly failed
exits 3, each with one line naming the count, the first cause, the endpoint and what to do; the report
(--json) carries the causes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from memgraph_neo4j.repository.documents import delete_space

GOOD = json.dumps({"entities": [{"name": "Ada Lovelace", "type": "Person"}, {"name": "London", "type": "Place"}],
                   "facts": [{"head": "Ada Lovelace", "relation": "born_in", "tail": "London",
                              "head_type": "Person", "tail_type": "Place"}]})


class _Stub(ThreadingHTTPServer):
    daemon_threads = True
    mode = "401"
    route = None  # mode "route": a function of the request body giving the reply's content


class _Handler(BaseHTTPRequestHandler):
    server: _Stub

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        mode, content = self.server.mode, GOOD
        if mode == "mixed":  # passages that say GOOD are answered, the others refused
            mode = "ok" if "GOOD" in body["messages"][1]["content"] else "401"
        elif mode == "route":
            mode, content = "ok", self.server.route(body)
        kind, code = "application/json", 200
        if mode == "401":
            code, payload = 401, {"error": {"message": "Incorrect API key provided", "code": "invalid_api_key"}}
        elif mode == "500":
            code, payload = 500, {"error": {"message": "boom"}}
        else:
            payload = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
        data = json.dumps(payload).encode()
        if mode == "nonjson":
            kind, data = "text/html", b"<html>gateway says hello</html>"
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def stub() -> Iterator[_Stub]:
    server = _Stub(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def ingest(connection, stub: _Stub, folder, space: str, *extra: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database, OPENAI_API_KEY="sk-wrong")
    env.pop("OPENAI_BASE_URL", None)
    url = f"http://127.0.0.1:{stub.server_address[1]}/v1"
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "ingest", str(folder), "--space", space,
                           "--extractor", "openai", "--base-url", url, "--batch-size", "2", *extra],
                          capture_output=True, text=True, env=env, timeout=300)


def corpus(tmp_path, good: int, bad: int):
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(good + bad):
        word = "GOOD" if i < good else "BAD"
        (folder / f"d{i}.txt").write_text(f"{word} Ada Lovelace number {i} was born in London in {1800 + i}.")
    return folder


@pytest.mark.parametrize("mode, cause, hint", [
    ("401", "401", "check OPENAI_API_KEY"),
    ("500", "500", "run the ingest again"),
    ("nonjson", "not OpenAI-compatible JSON", "check --base-url"),
])
def test_every_chunk_failed_exits_1_with_one_line(neo4j_connection, store, stub, tmp_path, mode, cause, hint):
    stub.mode = mode
    space = f"t_exit_{mode}_{uuid.uuid4().hex[:8]}"
    try:
        ran = ingest(neo4j_connection, stub, corpus(tmp_path, 0, 3), space)
        assert ran.returncode == 1, ran.stderr
        lines = ran.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in ran.stderr, ran.stderr
        assert lines[0].startswith("error: 3 of 3 chunks failed: ") and cause in lines[0] and hint in lines[0]
        assert f"127.0.0.1:{stub.server_address[1]}" in lines[0]
    finally:
        delete_space(store, space)


def test_some_chunks_failed_exits_3_and_the_report_carries_the_causes(neo4j_connection, store, stub, tmp_path):
    stub.mode = "mixed"
    space = f"t_exit_mixed_{uuid.uuid4().hex[:8]}"
    try:
        ran = ingest(neo4j_connection, stub, corpus(tmp_path, 2, 2), space, "--json")
        assert ran.returncode == 3, ran.stderr
        report = json.loads(ran.stdout)
        assert report["extracted"] == 2 and report["failed"] == 2 and report["stopped"] == "failures"
        [(error, count)] = report["failed_causes"].items()
        assert "401" in error and count == 2
        lines = ran.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("warning: 2 of 4 chunks failed: ")
        assert "OPENAI_API_KEY" in lines[0]
        # the failed chunks answered now: the rerun extracts only them and succeeds
        stub.mode = "ok"
        again = ingest(neo4j_connection, stub, tmp_path / "docs", space)
        assert again.returncode == 0, again.stderr
        assert again.stderr.strip() == "" and again.stdout.startswith("done: 4 documents, 4 passages (0 new); ")
    finally:
        delete_space(store, space)


def test_a_run_the_budget_stopped_exits_3(neo4j_connection, store, stub, tmp_path):
    stub.mode = "ok"
    space = f"t_exit_budget_{uuid.uuid4().hex[:8]}"
    try:
        ran = ingest(neo4j_connection, stub, corpus(tmp_path, 6, 0), space, "--budget-tokens", "20")
        assert ran.returncode == 3, ran.stderr
        [line] = ran.stderr.strip().splitlines()
        assert line.startswith("warning: the budget stopped the run: ") and "left for the next ingest" in line
        assert ran.stdout.startswith("stopped by the budget: 6 documents, 6 passages (6 new); 2 extracted, ")
    finally:
        delete_space(store, space)
