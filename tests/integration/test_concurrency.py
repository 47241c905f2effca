"""Concurrency against the real server: two ingest processes on one space at once build the graph running
them one after the other builds (unique constraints + MERGE on content-hash ids), and searches from 8
threads during an ingest all answer, without errors (stale PPR projections included)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from test_bad_input import snapshot

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.memory.lease import EXPIRY, IngestLease, LeaseLost, this_process
from memgraph_neo4j.repository.lease import LeaseHolder, LeaseRepository, LeaseState

CORPUS = Path(__file__).resolve().parents[2] / "memgraph_neo4j" / "demo" / "corpus"


def _ingest(connection, space: str, paths: list[Path]) -> subprocess.Popen:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    env.pop("OPENAI_API_KEY", None)
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.Popen([sys.executable, "-m", "memgraph_neo4j.cli.main", "ingest", *map(str, paths),
                             "--space", space, "--batch-size", "2"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _done(process: subprocess.Popen) -> None:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err[-2000:]


class _Output:
    """Reads a running process's stdout and stderr on threads, so the test can watch stderr meanwhile."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process, self.out, self.err = process, [], []
        self._threads = [threading.Thread(target=self._read, args=(s, b), daemon=True)
                         for s, b in ((process.stdout, self.out), (process.stderr, self.err))]
        for thread in self._threads:
            thread.start()

    @staticmethod
    def _read(stream, into: list[str]) -> None:
        for line in iter(stream.readline, ""):
            into.append(line)

    def says(self, text: str) -> bool:
        return text in "".join(self.err)

    def finish(self) -> str:
        self.process.wait(timeout=600)
        for thread in self._threads:
            thread.join(timeout=30)
        assert self.process.returncode == 0, "".join(self.err)[-2000:]
        return "".join(self.err)


def _graph(test_store, space: str) -> dict:
    """The snapshot without the bookkeeping node whose id is its element id (one per space either way)."""
    return {k: v if k != "node:MemoryState" else v[0] for k, v in snapshot(test_store, space).items()}


@pytest.fixture
def spaces(store):
    names = [f"t_conc_{uuid.uuid4().hex[:8]}" for _ in range(3)]
    yield names
    for name in names:
        store.run_implicit("admin/delete_space", space=name)


def test_two_ingests_at_once_build_the_sequential_graph(neo4j_connection, store, test_store, minilm, spaces):
    """The space's ingest lease (memory/lease.py) serialises the two: the graph is the sequential build in
    the order the lease was granted. The test holds the lease until both processes wait for it, so they
    certainly run at once; the one granted second names the other's pid on stderr while it waits."""
    files = sorted(CORPUS.glob("*.md"))[:5]
    runs = {"a": files[:3], "b": files[2:]}  # one document in both runs
    together, *orders = spaces
    references = {}
    for space, order in zip(orders, (("a", "b"), ("b", "a"))):  # the CLI's defaults, in this process
        with MemoryGraph(space=space, store=store, embedder=minilm) as memory:
            for name in order:
                memory.ingest(runs[name], batch_size=2, progress=False)
        references[order] = _graph(test_store, space)
    with IngestLease(store, together):  # renewed by its heartbeat however long the processes take to start
        outputs = {name: _Output(_ingest(neo4j_connection, together, paths)) for name, paths in runs.items()}
        waiting = f"is being ingested by pid {os.getpid()} on "
        deadline = time.monotonic() + 300
        while not all(o.says(waiting) for o in outputs.values()):
            assert time.monotonic() < deadline and all(o.process.poll() is None for o in outputs.values()), \
                {name: "".join(o.err)[-1500:] for name, o in outputs.items()}
            time.sleep(0.1)
    errors = {name: o.finish() for name, o in outputs.items()}
    pid = {name: o.process.pid for name, o in outputs.items()}
    second = [name for name, other in (("a", "b"), ("b", "a")) if f"ingested by pid {pid[other]} on " in errors[name]]
    assert len(second) == 1, errors  # exactly one waited for the other
    order = ("b", "a") if second == ["a"] else ("a", "b")
    concurrent = _graph(test_store, together)
    assert concurrent["node:Document"][0] == 5 and concurrent["node:Conflict"][0] >= 1
    assert concurrent == references[order]
    assert "node:IngestLease" not in concurrent  # given back at the end


def test_a_lease_whose_holder_died_here_is_taken_over_at_once(store, space):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: its pid is no process any more
    me = this_process()
    ghost = LeaseHolder(f"{me.host}:{gone.pid}:ghost", me.host, gone.pid, me.started)
    assert LeaseRepository(store, space).acquire(ghost, None, EXPIRY).granted
    said: list[str] = []
    lease = IngestLease(store, space, say=said.append)
    began = time.monotonic()
    with lease:
        assert time.monotonic() - began < 5 and said == [] and lease.took_over == ghost
    assert LeaseRepository(store, space).acquire(ghost, None, EXPIRY).granted  # given back at the end
    LeaseRepository(store, space).release(ghost.holder)


def test_a_live_holder_is_waited_for_and_one_elsewhere_only_until_it_expires(store, space):
    holder = IngestLease(store, space)
    holder.acquire()
    said: list[str] = []
    waiter = IngestLease(store, space, poll=0.05, say=said.append)
    thread = threading.Thread(target=waiter.acquire)
    thread.start()
    time.sleep(1.0)
    assert thread.is_alive()  # same process, alive: waited for, however long
    [line] = said
    host = re.escape(holder.me.host)
    assert re.fullmatch(rf"memory space '{space}' is being ingested by pid {os.getpid()} on {host} "
                        r"\(lease renewed [01]s ago\): waiting for it to finish; a holder that died is taken over "
                        r"\(after 60s if it ran on another machine\)", line), line
    holder.release()
    thread.join(timeout=10)
    assert not thread.is_alive() and waiter.took_over is None
    waiter.release()
    elsewhere = LeaseHolder("other-host:1:x", "other-host", 1, None)  # cannot be checked: it has to expire
    assert LeaseRepository(store, space).acquire(elsewhere, None, EXPIRY).granted
    late = IngestLease(store, space, expiry=3, poll=0.2, say=said.append)
    late.acquire()
    assert 2 <= late.waited < 10 and late.took_over is None
    assert LeaseRepository(store, space).renew(elsewhere.holder) is False  # the expired holder lost it ...
    with pytest.raises(LeaseLost, match="was taken over by pid 1 on other-host"):
        late._lose(LeaseState(False, elsewhere, 0))  # noqa: SLF001 - what its heartbeat records when it lost it
        late.check()
    late._lost = None  # noqa: SLF001
    LeaseRepository(store, space).release(elsewhere.holder)  # ... and cannot give back the new holder's
    assert not LeaseRepository(store, space).acquire(elsewhere, None, EXPIRY).granted
    late.release()


def test_eight_threads_search_during_an_ingest(neo4j_connection, store, minilm, space):
    files = sorted(CORPUS.glob("*.md"))
    with MemoryGraph(space=space, store=store, embedder=minilm) as memory:
        memory.ingest(files[:3], progress=False)
    questions = ["In which country was Marie Curie born?", "Who developed COBOL?", "When was Alan Turing born?",
                 "Where is Microsoft headquartered?"]
    methods = ["memgraphrag", "dense", "hipporag2", "bm25"]
    errors: list[str] = []
    answered = [0] * 8
    writer = _ingest(neo4j_connection, space, files[3:])

    def search(worker: int) -> None:
        with MemoryGraph(space=space, store=store, embedder=minilm) as memory:
            rounds = 0
            while writer.poll() is None or rounds < 3:
                question, method = questions[(worker + rounds) % 4], methods[worker % 4]
                try:
                    result = memory.search(question, method=method, top_k=3)
                    answered[worker] += bool(result.passages)
                except Exception as exc:  # noqa: BLE001 - every failure is the finding
                    errors.append(f"{method}: {type(exc).__name__}: {exc}"[:600])
                rounds += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=search, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    _done(writer)
    assert errors == [], "\n".join(errors)
    assert all(count >= 3 for count in answered), answered
