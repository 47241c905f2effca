"""`memgraph-neo4j ingest` with a chat model against a local OpenAI-compatible stub: the cost budget priced from
the table of well-known models or from --price-input/--price-output, the time-out and retries of the model calls
(--llm-timeout, --llm-retries, MEMGRAPH_LLM_*), and the summary of a run that the budget or a signal stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from test_ingest_exit_codes import _Handler, _Stub, corpus, ingest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.repository.documents import delete_space

# what the stub reports per call: 10 prompt and 5 completion tokens; gpt-4o-mini costs $0.15 / $0.60 per million
CALL_COST = (10 * 0.15 + 5 * 0.60) / 1e6


class _Hanging(_Handler):
    """Mode "hang": takes the request and answers nothing until the test ends."""

    def do_POST(self) -> None:
        if self.server.mode != "hang":
            return super().do_POST()
        self.server.called.set()
        self.server.release.wait(300)


@pytest.fixture
def stub() -> Iterator[_Stub]:
    server = _Stub(("127.0.0.1", 0), _Hanging)
    server.called, server.release = threading.Event(), threading.Event()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def space(store) -> Iterator[str]:
    name = f"t_llmopt_{uuid.uuid4().hex[:8]}"
    yield name
    delete_space(store, name)


def test_a_cost_budget_priced_from_the_table_stops_the_run_and_says_so(neo4j_connection, stub, tmp_path, space):
    stub.mode = "ok"
    docs = corpus(tmp_path, 6, 0)
    # two chunks at a time: the first batch spends 2 x CALL_COST, over the budget; the other four are left
    ran = ingest(neo4j_connection, stub, docs, space, "--model", "gpt-4o-mini", "--budget-cost", str(CALL_COST * 1.5),
                 "--json")
    assert ran.returncode == 3, ran.stderr
    report = json.loads(ran.stdout)
    calls = report["usage"]["prompt_tokens"] // 10
    assert (report["stopped"], report["extracted"], report["skipped_budget"], calls) == ("budget", 2, 4, 2)
    assert report["usage"]["cost"] == pytest.approx(calls * CALL_COST)
    [line] = ran.stderr.strip().splitlines()
    assert line.startswith("warning: the budget stopped the run: 4 chunks left for the next ingest")
    # prices given: they override (here for a model the table lacks); the run ends, the summary says so
    again = ingest(neo4j_connection, stub, docs, space, "--model", "stub-model", "--price-input", "1000",
                   "--price-output", "2000", "--budget-cost", "5")
    assert again.returncode == 0, again.stderr
    summary = " ".join(again.stdout.split())  # one line, however the console wrapped it
    assert summary.startswith("done: 6 documents, 6 passages (0 new); 4 extracted, 0 failed;")
    assert "; 60 tokens ($0.0800); " in summary  # 4 calls x (10 x 1000 + 5 x 2000) / 1e6


@pytest.mark.parametrize(("extra", "named"), [
    (("--budget-cost", "1"), "give --price-input and --price-output (USD per million tokens"),
    (("--price-input", "0.5"), "model 'stub-model' is not in the price table (llm/prices.py): give --price-output"),
])
def test_a_price_the_table_lacks_is_asked_for_by_its_options(neo4j_connection, stub, tmp_path, space, extra, named):
    stub.mode = "ok"
    ran = ingest(neo4j_connection, stub, corpus(tmp_path, 1, 0), space, "--model", "stub-model", *extra)
    assert ran.returncode == 1 and "Traceback" not in ran.stderr, ran.stderr
    [line] = ran.stderr.strip().splitlines()
    assert line.startswith("error: ") and named in line
    assert not stub.called.is_set()


@pytest.mark.parametrize("how", ["options", "environment"])
def test_a_hung_endpoint_fails_in_seconds_with_the_timeout_and_retries_given(neo4j_connection, stub, tmp_path, space,
                                                                             monkeypatch, how):
    stub.mode = "hang"
    if how == "options":
        extra = ("--llm-timeout", "1", "--llm-retries", "0")
    else:
        extra = ()
        monkeypatch.setenv("MEMGRAPH_LLM_TIMEOUT", "1")
        monkeypatch.setenv("MEMGRAPH_LLM_RETRIES", "0")
    began = time.monotonic()
    ran = ingest(neo4j_connection, stub, corpus(tmp_path, 2, 0), space, *extra)
    # the defaults (60 s per call, 3 retries with backoff) would take over 4 minutes
    assert time.monotonic() - began < 120
    assert ran.returncode == 1, ran.stderr
    [line] = ran.stderr.strip().splitlines()
    assert line.startswith("error: 2 of 2 chunks failed: model call failed: TimeoutError: ")
    assert "within 1s (after 1 attempts)" in line and line.endswith("give the model more time with --llm-timeout")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_ingest_says_so_and_the_next_one_resumes(neo4j_connection, store, stub, tmp_path, space,
                                                               signum):
    stub.mode = "hang"
    docs = corpus(tmp_path, 3, 0)
    env = dict(os.environ, NEO4J_URI=neo4j_connection.uri, NEO4J_USERNAME=neo4j_connection.username,
               NEO4J_PASSWORD=neo4j_connection.password, NEO4J_DATABASE=neo4j_connection.database,
               OPENAI_API_KEY="sk-stub")
    url = f"http://127.0.0.1:{stub.server_address[1]}/v1"
    proc = subprocess.Popen([sys.executable, "-m", "memgraph_neo4j.cli.main", "ingest", str(docs), "--space", space,
                             "--extractor", "openai", "--base-url", url, "--batch-size", "2", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            # a shell's background job (`cmd &` without job control) ignores SIGINT, and a child
                            # inherits that: Python then installs no KeyboardInterrupt handler at all
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert stub.called.wait(300), "the ingest never called the model"
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)  # not the call's 60 s time-out, nor its retries
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signum, err
    report = json.loads(out)
    assert (report["stopped"], report["interrupted"], report["extracted"]) == ("interrupted", True, 0)
    [line] = err.strip().splitlines()
    assert line == ("warning: interrupted after 0 chunks extracted or failed: run the same ingest again to resume: "
                    "the batches written are kept and skipped")
    stub.mode = "ok"  # the lease was released: the next run goes ahead and extracts the three chunks
    again = ingest(neo4j_connection, stub, docs, space)
    assert again.returncode == 0, again.stderr
    assert " ".join(again.stdout.split()).startswith("done: 3 documents, 3 passages (3 new); 3 extracted, 0 failed;")
    with MemoryGraph(space=space, store=store, embedder=None) as memory:
        assert memory.stats()["nodes"]["Passage"]["by_state"] == {"ok": 3}


def test_the_offline_extractor_with_a_chat_model_for_the_adjudication_agents(neo4j_connection, store, stub, tmp_path,
                                                                            space):
    """MemoryGraph(adjudication_chat=...) from the CLI: --adjudicator model with --model/--base-url beside the
    offline extractor; without any chat model, one line saying what to give."""
    from test_agent_adjudication import judge

    stub.mode, stub.route = "route", judge
    for marker, year in (("A", "1643"), ("B", "1642")):
        doc = tmp_path / f"newton-{marker}.txt"
        doc.write_text(f"Isaac Newton was born in {year}.\n")
        done = ingest(neo4j_connection, stub, doc, space, "--extractor", "offline", "--adjudicator", "model",
                      "--model", "stub-judge")
        assert done.returncode == 0, done.stderr[-2000:]
    with MemoryGraph(space=space, store=store, embedder=None) as memory:
        [conflict] = memory.conflicts.list()
        detail = memory.conflicts.show(conflict.id)
    assert (conflict.type, conflict.status, detail.model) == ("mutual_exclusion", "resolved", "stub-judge")
    env = dict(os.environ, NEO4J_URI=neo4j_connection.uri, NEO4J_USERNAME=neo4j_connection.username,
               NEO4J_PASSWORD=neo4j_connection.password, NEO4J_DATABASE=neo4j_connection.database)
    env.pop("OPENAI_API_KEY", None)
    env.pop("OPENAI_BASE_URL", None)
    ran = subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "ingest", str(doc), "--space", space,
                          "--adjudicator", "model"], capture_output=True, text=True, env=env, timeout=300)
    assert ran.returncode == 1 and ran.stderr.strip() == (
        "error: --adjudicator model needs a chat model: --extractor openai or langchain, or --model/--base-url (or "
        "set OPENAI_API_KEY or OPENAI_BASE_URL)")


def test_categorise_gives_up_on_a_hung_endpoint_after_its_llm_timeout(neo4j_connection, store, minilm, stub, space):
    """`categorise --llm-timeout 1`: a model that never answers stops the command in seconds with one line."""
    MemoryGraph(space=space, store=store, embedder=minilm).ingest(
        "Ada Lovelace was born in London. Charles Babbage was born in London.", progress=False)
    stub.mode = "hang"
    env = dict(os.environ, NEO4J_URI=neo4j_connection.uri, NEO4J_USERNAME=neo4j_connection.username,
               NEO4J_PASSWORD=neo4j_connection.password, NEO4J_DATABASE=neo4j_connection.database,
               OPENAI_API_KEY="sk-stub", MEMGRAPH_LLM_RETRIES="0")
    url = f"http://127.0.0.1:{stub.server_address[1]}/v1"
    began = time.monotonic()
    ran = subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "categorise", "--space", space,
                          "--base-url", url, "--model", "gpt-4o-mini", "--llm-timeout", "1"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert time.monotonic() - began < 120  # the client's default is 60 s a call, with retries
    assert ran.returncode == 1 and stub.called.is_set(), ran.stderr
    [line] = ran.stderr.strip().splitlines()
    assert line == "error: categorise: gpt-4o-mini: no answer within 1s: give the model more time with --llm-timeout"
