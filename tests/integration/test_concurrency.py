"""Concurrency against the real server: two ingest processes on one space at once build the graph running
them one after the other builds (unique constraints + MERGE on content-hash ids), and searches from 8
threads during an ingest all answer, without errors (stale PPR projections included)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from test_bad_input import snapshot

from memgraph_neo4j.api import MemoryGraph

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


def _graph(test_store, space: str) -> dict:
    """The snapshot without the bookkeeping node whose id is its element id (one per space either way)."""
    return {k: v if k != "node:MemoryState" else v[0] for k, v in snapshot(test_store, space).items()}


@pytest.fixture
def spaces(store):
    names = [f"t_conc_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    yield names
    for name in names:
        store.run_implicit("admin/delete_space", space=name)


@pytest.mark.xfail(strict=False, reason="a race (it can pass by luck): two processes at once left a Conflict node "
                   "twice under one id (no uniqueness constraint on Conflict.id; adjudication's write_conflicts "
                   "MERGE raced), 7 INVOLVES edges instead of 5, and 2 SIMILAR edges instead of 3 (bridging sees "
                   "only the entities the other process had committed). Needs: a Conflict key constraint, and "
                   "bridging/adjudication re-run over entities and facts written concurrently (write path)")
def test_two_ingests_at_once_build_the_sequential_graph(neo4j_connection, test_store, spaces):
    files = sorted(CORPUS.glob("*.md"))[:5]
    first, second = files[:3], files[2:]  # one document in both runs
    together, one_by_one = spaces
    runs = [_ingest(neo4j_connection, together, first), _ingest(neo4j_connection, together, second)]
    for run in runs:
        _done(run)
    _done(_ingest(neo4j_connection, one_by_one, first))
    _done(_ingest(neo4j_connection, one_by_one, second))
    concurrent, sequential = _graph(test_store, together), _graph(test_store, one_by_one)
    assert concurrent["node:Document"][0] == 5 and concurrent == sequential


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
