"""Resumable ingest (issue 15, item 1): SIGKILL the ingest process, or the Neo4j server under it, in
the middle of an ingest; run the same ingest again. The space must end node for node and edge for
edge as an uninterrupted build of the same corpus in another space, and the second run must call the
model only for the chunks the first one had not finished.

The ingest runs in a child process (kill_resume_child.py: generated corpus, scripted chat model that
logs its calls, hashing embedder). The process kill runs with the rules adjudicating, and with the agents
over the same scripted chat (classification and resolution answered from the facts shown, logged apart from
the extraction calls): the resumed space has the clean build's conflicts, verdicts and schema frequencies.
The server test kills a Neo4j instance of its own (ports 17689 / 17476, MEMGRAPH_HOME/test-kill-instance),
never the test server other sessions share.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from kill_resume_child import BATCH, documents
from kill_resume_child import memory as child_memory

from memgraph_neo4j.config import Connection, Settings
from memgraph_neo4j.contracts import ExtractionState
from memgraph_neo4j.store import CypherLibrary, GraphStore

CHILD = Path(__file__).with_name("kill_resume_child.py")
TEST_CYPHER = CypherLibrary(Path(__file__).parent.parent / "cypher")
KILL_BOLT_PORT, KILL_HTTP_PORT = 17689, 17476


def run_child(uri: str, password: str, space: str, log: Path, delay: float = 0.0,
              die_after: int | None = None, adjudicator: str = "rules") -> subprocess.Popen:
    extra = [] if die_after is None else [str(die_after)]
    return subprocess.Popen([sys.executable, str(CHILD), uri, password, space, str(log), adjudicator, str(delay),
                             *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def calls(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def agent_calls(log: Path) -> Counter:
    """The adjudication agents' calls of a run, by agent (classify, resolve): logged apart from `log`."""
    agents = Path(f"{log}.adjudication")
    return Counter(line.split()[0] for line in agents.read_text().splitlines()) if agents.exists() else Counter()


def wait_for_calls(log: Path, at_least: int, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while len(calls(log)) < at_least:
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the ingest ended before the kill (code {proc.returncode}):\n{err[-3000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"fewer than {at_least} model calls after {timeout:.0f}s")
        time.sleep(0.02)


def finish(proc: subprocess.Popen, timeout: float = 120.0) -> str:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-3000:]
    return out


def fingerprint(store: GraphStore, space: str) -> tuple[Counter, Counter]:
    """Multisets of every node (labels, id, states, names, ...) and every edge (type, ends, weight)."""
    lib = store.with_library(TEST_CYPHER)
    nodes = Counter(tuple((k, tuple(sorted(v)) if isinstance(v, list) and k == "labels" else
                           tuple(v) if isinstance(v, list) else v) for k, v in sorted(r.items()))
                    for r in lib.read("kill_resume_nodes", space=space))
    edges = Counter((r["type"], r["source"], r["target"], None if r["weight"] is None else round(r["weight"], 5),
                     r["verdict"] and tuple(r["verdict"])) for r in lib.read("kill_resume_edges", space=space))
    return nodes, edges


def conflicts(store: GraphStore, space: str) -> dict[str, str]:
    """Conflict id -> status."""
    from memgraph_neo4j.repository.conflicts import ConflictRepository

    return {c.id: c.status for c in ConflictRepository(store, space).list(limit=1000)}


def done_passages(store: GraphStore, space: str) -> set[str]:
    """Hashes (as the scripted chat logs them) of the passages whose extraction is committed."""
    rows = store.with_library(TEST_CYPHER).read("kill_resume_done", space=space, ok=ExtractionState.OK.value)
    return {hashlib.sha256(r["text"].encode()).hexdigest()[:16] for r in rows}


def assert_same_space(store: GraphStore, resumed: str, reference: str) -> None:
    got_nodes, got_edges = fingerprint(store, resumed)
    want_nodes, want_edges = fingerprint(store, reference)
    by_label = lambda c: Counter({k: n for k, n in Counter(dict(r)["labels"] for r in c.elements()).items()})  # noqa: E731
    assert by_label(got_nodes) == by_label(want_nodes)
    assert Counter(e[0] for e in got_edges.elements()) == Counter(e[0] for e in want_edges.elements())
    assert got_nodes == want_nodes, (got_nodes - want_nodes, want_nodes - got_nodes)
    assert got_edges == want_edges, (got_edges - want_edges, want_edges - got_edges)


def build_reference(store: GraphStore, space: str, log: Path, adjudicator: str = "rules") -> int:
    """The uninterrupted build, in this process; returns its extraction calls."""
    report = child_memory(store, space, str(log), adjudicator).ingest(documents(), batch_size=BATCH, progress=False)
    assert report.failed == 0 and report.facts > 0
    return len(calls(log))


def delete(store: GraphStore, *spaces: str) -> None:
    for space in spaces:
        store.run_implicit("admin/delete_space", space=space)


# Kills right after the n-th write transaction of a run: they fall at different places of a batch
# (before, between and after its writes, promotion and adjudication) on any version of the writer.
SELF_KILLS = [2, 5, 3]


@pytest.mark.parametrize("adjudicator", ["rules", "model"])
def test_sigkill_of_the_ingest_process_then_rerun_gives_the_uninterrupted_graph(store, neo4j_connection, tmp_path,
                                                                                adjudicator):
    reference, resumed = f"t_ref_{uuid.uuid4().hex[:8]}", f"t_kill_{uuid.uuid4().hex[:8]}"
    uri, password = neo4j_connection.uri, neo4j_connection.password
    try:
        total = build_reference(store, reference, tmp_path / "reference.log", adjudicator)
        # birth years plant mutual exclusions: the agents resolve them (the earlier year kept), the rules cannot
        judged = conflicts(store, reference)
        agents = agent_calls(tmp_path / "reference.log")
        if adjudicator == "model":
            assert judged and set(judged.values()) == {"resolved"} and agents["resolve"] == len(judged)
            assert agents["classify"] >= len(judged)
        else:
            assert judged and set(judged.values()) == {"needs_review"} and not agents
        # the test kills the child while it waits for the model, then the child kills itself after
        # its n-th write transaction, several times; then a run to the end
        logs = [tmp_path / f"run{i}.log" for i in range(len(SELF_KILLS) + 2)]
        proc = run_child(uri, password, resumed, logs[0], delay=0.02, adjudicator=adjudicator)
        wait_for_calls(logs[0], total // 5, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        for log, writes in zip(logs[1:], SELF_KILLS):
            before = done_passages(store, resumed)
            proc = run_child(uri, password, resumed, log, die_after=writes, adjudicator=adjudicator)
            proc.communicate(timeout=120)
            assert proc.returncode == -signal.SIGKILL
            assert not set(calls(log)) & before  # no model call for a chunk already done
        before = done_passages(store, resumed)
        assert 0 < len(before) < total  # the kills landed mid-ingest
        finish(run_child(uri, password, resumed, logs[-1], adjudicator=adjudicator))
        last = calls(logs[-1])
        assert sorted(set(last)) == sorted(last)  # each chunk asked once
        assert not set(last) & before  # no model call for a chunk already done
        assert len(last) == total - len(before)  # ... and one for each chunk not done
        if adjudicator == "model":  # the agents judged in the killed runs or the last: each conflict once in all
            assert sum((agent_calls(log) for log in logs), Counter())["resolve"] >= len(judged)
        assert conflicts(store, resumed) == judged
        assert_same_space(store, resumed, reference)
    finally:
        delete(store, reference, resumed)


@pytest.fixture
def own_server(local_server, test_settings):
    """A Neo4j instance of this test alone (the shared test server must not be killed under other
    sessions). Its data stays between runs; the spaces the test makes are deleted."""
    if local_server is None:
        pytest.skip("killing the server needs the launcher-managed local instance (not NEO4J_URI or Docker)")
    from memgraph_neo4j.server.launcher import LocalNeo4j

    settings = Settings(home=test_settings.home, bolt_port=KILL_BOLT_PORT, http_port=KILL_HTTP_PORT, heap="512m",
                        pagecache="128m")
    server = LocalNeo4j(settings, instance_dir=Path(settings.home) / "test-kill-instance")
    server.start(progress=lambda *_: None)
    try:
        yield server
    finally:
        server.stop()


def connect(server) -> GraphStore:
    store = GraphStore.connect(Connection(uri=server.bolt_uri, password=server.password()))
    store.init_schema(384)
    return store


def test_sigkill_of_the_server_mid_ingest_then_restart_and_rerun_gives_the_uninterrupted_graph(own_server,
                                                                                                 tmp_path):
    reference, resumed = f"t_ref_{uuid.uuid4().hex[:8]}", f"t_kill_{uuid.uuid4().hex[:8]}"
    store = connect(own_server)
    try:
        total = build_reference(store, reference, tmp_path / "reference.log")
        first, second = tmp_path / "first.log", tmp_path / "second.log"
        proc = run_child(own_server.bolt_uri, own_server.password(), resumed, first, delay=0.02)
        wait_for_calls(first, total // 2, proc)
        os.kill(own_server.running_pid(), signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode not in (0, -signal.SIGKILL), "the ingest should fail when its server dies"
        store.close()
        own_server.start(progress=lambda *_: None)  # crash recovery: committed batches survive
        store = connect(own_server)
        before = done_passages(store, resumed)
        assert 0 < len(before) < total
        finish(run_child(own_server.bolt_uri, own_server.password(), resumed, second))
        last = calls(second)
        assert not set(last) & before and len(last) == total - len(before) == len(set(last))
        assert_same_space(store, resumed, reference)
    finally:
        delete(store, reference, resumed)
        store.close()


def test_a_batch_whose_new_entities_another_writer_created_first_is_merged(store, space, tmp_path):
    """Entities resolution takes for new are CREATEd; if another writer created one meanwhile, the
    constraint fails the transaction and the batch is written again with MERGE: same graph, no error."""
    docs = documents()[:2]
    first = child_memory(store, space, str(tmp_path / "calls.log"))
    first.ingest(docs, batch_size=BATCH, progress=False)
    want = fingerprint(store, space)
    late = child_memory(store, space, str(tmp_path / "calls.log"))
    late.writer.lookup.lookup_aliases = lambda keys: []  # it has not seen the other writer's entities
    late.writer.lookup.entity_neighbors = lambda rows, fetch, min_cosine: []
    from memgraph_neo4j.contracts import ExtractionInput, NoGuide
    from memgraph_neo4j.ingest.pipeline import passage_rows

    rows = passage_rows(docs, late.ontology.chunking.tokens, late.ontology.chunking.overlap)
    outcomes = late.extractor.extract([ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title)
                                       for r in rows[:BATCH]], NoGuide())
    report = late.writer.write_batch(outcomes)
    assert report.new_entities > 0
    nodes, edges = fingerprint(store, space)
    assert nodes == want[0]  # nothing duplicated
    assert {e[0] for e in edges} <= {e[0] for e in want[1]}
