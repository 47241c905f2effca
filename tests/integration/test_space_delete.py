"""Deleting a space under its ingest lease (memory/lease.py `delete_space`), against the real server: a delete
waits for a running ingest, an ingest started meanwhile waits for the delete, so together they end as one of
the two sequential orders; an ingest whose lease goes while it runs stops before writing more and says why;
a delete that died half-way leaves the space refusing ingests until a delete run again finishes it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid

import pytest
from test_bad_input import SEED, memory_of, snapshot
from test_concurrency import CORPUS, _graph, _ingest, _Output
from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.memory.lease import EXPIRY, IngestLease, LeaseLost, SpaceDeleting, delete_space, this_process
from memgraph_neo4j.repository.documents import delete_space as delete_steps
from memgraph_neo4j.repository.documents import list_spaces
from memgraph_neo4j.repository.lease import LeaseHolder, LeaseRepository
from memgraph_neo4j.retrieval.projection import space_prefix

FILES = sorted(CORPUS.glob("*.md"))[:3]  # what the ingests under test write
OTHER = sorted(CORPUS.glob("*.md"))[5:7]  # what the space held before
BROKEN = ("facts without evidence", "entities without mentions", "documents without passages",
          "schemas of frequency 0")


def pattern(space: str) -> str:
    return re.escape(space_prefix(space)) + r"\d+_p.*"


def integrity(test_store, space: str) -> dict[str, int]:
    """Nodes per label set and state, and the counts of what a cut-short write leaves (BROKEN)."""
    return {r["key"]: r["n"] for r in test_store.read("space_integrity", space=space)}


def wipe(test_store, *spaces: str) -> None:
    for space in spaces:  # lease nodes included (the test's own spaces)
        test_store.run_implicit("delete_space_unlocked", space=space)


def wait_for(condition, what: str, *processes: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        assert all(p.poll() is None for p in processes), f"a process ended while waiting for {what}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def clean(store, test_store, minilm):
    """FILES ingested into an empty space with the CLI's defaults (batch size 2): graph and integrity."""
    name = f"t_del_ref_{uuid.uuid4().hex[:8]}"
    with MemoryGraph(space=name, store=store, embedder=minilm) as memory:
        memory.ingest(FILES, batch_size=2, progress=False)
    built = _graph(test_store, name), integrity(test_store, name)
    delete_space(store, name, pattern(name))
    assert all(built[1][key] == 0 for key in BROKEN), built[1]
    assert built[1]["node:Document"] == 3 and built[1]["node:Schema/stable"] >= 1
    return built


@pytest.fixture
def filled(store, test_store, minilm):
    """A space that holds OTHER (so a delete has something to delete), wiped afterwards."""
    name = f"t_del_{uuid.uuid4().hex[:8]}"
    with MemoryGraph(space=name, store=store, embedder=minilm) as memory:
        memory.ingest(OTHER, batch_size=2, progress=False)
    yield name
    wipe(test_store, name)
    store.write("admin/drop_space_graphs", pattern=pattern(name))


def _cli(connection, *args: str) -> subprocess.Popen:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    return subprocess.Popen([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_delete_waits_for_the_running_ingest_then_deletes_all_of_it(neo4j_connection, store, test_store, filled):
    ingest = _Output(_ingest(neo4j_connection, filled, FILES))
    wait_for(lambda: [r["pid"] for r in test_store.read("lease_of", space=filled)] == [ingest.process.pid],
             "the ingest's lease", ingest.process)
    said: list[str] = []
    lease = delete_space(store, filled, pattern(filled), say=said.append)
    ingest.finish()
    [line] = said
    assert f"memory space '{filled}' is being ingested by pid {ingest.process.pid} on " in line
    assert lease.told is not None and lease.told.pid == ingest.process.pid
    assert snapshot(test_store, filled) == {}  # all of it, the ingest's lease node and the delete's too


def test_an_ingest_started_during_a_delete_waits_and_builds_the_space_anew(neo4j_connection, store, test_store,
                                                                             clean, filled):
    """The test holds the delete's lease (marked deleting) while the ingest starts, and deletes under it
    (delete_space's steps): the ingest waits, naming the deleting pid, then builds what an empty space gets."""
    with IngestLease(store, filled, deleting=True):
        ingest = _Output(_ingest(neo4j_connection, filled, FILES))
        wait_for(lambda: ingest.says(f"memory space '{filled}' is being deleted by pid {os.getpid()} on "),
                 "the ingest to wait", ingest.process)
        delete_steps(store, filled, pattern(filled))
    ingest.finish()
    assert (_graph(test_store, filled), integrity(test_store, filled)) == clean


def test_a_delete_and_an_ingest_at_once_end_as_one_of_their_sequential_orders(neo4j_connection, store, test_store,
                                                                              clean, filled):
    """`spaces delete` and `ingest` started together (both wait for the test's lease, so they certainly run
    at once): the space ends empty (ingest, then delete) or as FILES alone build it (delete, then ingest)."""
    with IngestLease(store, filled):
        ingest = _Output(_ingest(neo4j_connection, filled, FILES))
        delete = _Output(_cli(neo4j_connection, "spaces", "delete", filled, "--yes"))
        waiting = f"is being ingested by pid {os.getpid()} on "
        wait_for(lambda: ingest.says(waiting) and delete.says(waiting), "both to wait", ingest.process,
                 delete.process)
    errors = {"ingest": ingest.finish(), "delete": delete.finish()}
    assert f"deleted memory space '{filled}'" in "".join(delete.out)
    delete_first = f"is being deleted by pid {delete.process.pid} on " in errors["ingest"]
    ingest_first = f"is being ingested by pid {ingest.process.pid} on " in errors["delete"]
    assert not (delete_first and ingest_first), errors  # (a delete is quick: the ingest may not see it)
    if snapshot(test_store, filled) == {}:
        assert not delete_first, errors  # ingest, then delete
    else:
        assert not ingest_first, errors  # delete, then ingest: what FILES build in an empty space
        assert (_graph(test_store, filled), integrity(test_store, filled)) == clean


TEXTS = [f"DOC_{k} {k} text." for k in "ABCD"]
STOLEN = LeaseHolder("other-host:1:x", "other-host", 1, None)


@pytest.mark.parametrize("how, message", [
    ("deleted", "memory space '{space}' was deleted while this ingest ran (its ingest lease is gone): the "
                "ingest stopped before writing more; ingest again to build the space anew"),
    ("taken over", "the ingest lease of memory space '{space}' was taken over by pid 1 on other-host (not "
                   "renewed for 60s): the ingest stopped before writing more; run it again, it resumes where "
                   "it stopped"),
    ("taken by a delete", "memory space '{space}' is being deleted by pid 1 on other-host: it took over this "
                          "ingest's lease (not renewed for 60s); the ingest stopped before writing more"),
])
def test_an_ingest_whose_lease_goes_stops_before_writing_more(store, test_store, space, how, message):
    """After the first batch the lease goes: the space deleted by an unlocked delete (of an older version,
    lease node and all), or the lease taken by another ingest or a delete (as after it expired). The next
    write transaction finds it gone (its first statement, GraphStore.guarded), well before a heartbeat."""
    script = {f"DOC_{k}": [(f"Person {k}", "knows", "Person Z", "Person", "Person")] for k in "ABCD"}
    left: list[dict] = []

    def on_batch(report, done: int) -> None:
        if left:
            return
        if how == "deleted":
            test_store.run_implicit("delete_space_unlocked", space=space)
        else:
            test_store.write("steal_lease", space=space, holder=STOLEN.holder, host=STOLEN.host, pid=STOLEN.pid,
                             deleting=True if how == "taken by a delete" else None)
        left.append(snapshot(test_store, space))

    with memory_of(store, space, extractor=ScriptedExtractor(script)) as memory, pytest.raises(LeaseLost) as caught:
        memory.ingest(TEXTS, batch_size=1, progress=False, on_batch=on_batch)
    assert str(caught.value) == message.format(space=space)
    assert left and snapshot(test_store, space) == left[0]  # nothing written after the lease went
    wipe(test_store, space)


def test_a_half_deleted_space_takes_no_ingest_until_a_delete_finishes_it(store, test_store, space):
    """A delete killed after it took the lease (and maybe some batches) leaves the lease marked deleting:
    an ingest refuses the space, `spaces list` marks it, and a delete run again finishes it."""
    with memory_of(store, space) as memory:
        memory.ingest(SEED, progress=False)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: its pid is no process any more
    me = this_process()
    ghost = LeaseHolder(f"{me.host}:{gone.pid}:ghost", me.host, gone.pid, me.started)
    assert LeaseRepository(store, space).acquire(ghost, None, EXPIRY, deleting=True).granted
    before = snapshot(test_store, space)
    with memory_of(store, space) as memory, pytest.raises(SpaceDeleting) as caught:
        memory.ingest(["DOC_B more text."], progress=False)
    assert str(caught.value) == (
        f"memory space '{space}' is half-deleted: the delete run by pid {gone.pid} on {me.host} stopped before "
        f"it finished; run `memgraph-neo4j spaces delete {space}` again to finish it, then ingest")
    assert snapshot(test_store, space) == before
    assert {s.name: s.deleting for s in list_spaces(store)}[space] is True
    lease = delete_space(store, space, pattern(space))
    assert lease.took_over == ghost and snapshot(test_store, space) == {}
    assert space not in {s.name for s in list_spaces(store)}
    with memory_of(store, space) as memory:
        memory.ingest(SEED, progress=False)
    assert integrity(test_store, space)["node:Document"] == 1
