"""Every multi-step writer of a space holds its ingest lease (memory/lease.py `leased`), against the real
server: a retraction (`documents delete`) or a conflict scan waits for a running ingest, a delete waits for
a running retraction, a retraction whose lease goes stops before writing more, and the writers refuse a
half-deleted space with one line on stderr and exit 1; a holder calling another writer goes on under the
lease it holds (a retraction re-checking conflicts, an ingest adjudicating)."""

from __future__ import annotations

import logging
import os
import subprocess
import threading

import pytest
from test_bad_input import SEED, memory_of, snapshot
from test_concurrency import _Output
from test_space_delete import EXPIRY, STOLEN, _cli, pattern, wait_for, wipe

from memgraph_neo4j.memory.lease import IngestLease, LeaseLost, SpaceDeleting, delete_space, this_process
from memgraph_neo4j.repository.documents import DocumentRepository
from memgraph_neo4j.repository.lease import LeaseHolder, LeaseRepository

WAITING = "is being ingested by pid {pid} on "


def _seeded(store, space: str) -> str:
    """The space with SEED and a second document in it; the id of SEED's document."""
    with memory_of(store, space) as memory:
        memory.ingest([SEED, "DOC_B Ada Lovelace knew Mary Somerville."], progress=False)
        first, second = memory.documents()  # in ingest order
        return first.id


def test_a_retraction_waits_for_the_running_ingest(neo4j_connection, store, test_store, space):
    """The test holds the lease as an ingest does: `documents delete` waits (naming the test's pid) without
    writing anything, and retracts once the lease is given back."""
    doc = _seeded(store, space)
    with IngestLease(store, space):
        before = snapshot(test_store, space)
        retract = _Output(_cli(neo4j_connection, "documents", "delete", doc, "--space", space, "--yes"))
        wait_for(lambda: retract.says(WAITING.format(pid=os.getpid())), "the retraction to wait", retract.process)
        assert snapshot(test_store, space) == before
    retract.finish()
    assert "retracted 1 documents" in "".join(retract.out)
    with memory_of(store, space) as memory:
        assert [d.id for d in memory.documents()] != [doc] and len(memory.documents()) == 1


def test_a_conflict_scan_waits_for_the_running_ingest(store, space, caplog):
    """`adjudicate` (`conflicts scan`, the MCP server's) on another thread waits while this one holds the lease."""
    _seeded(store, space)
    done = threading.Event()

    def scan() -> None:
        with memory_of(store, space) as memory:
            memory.adjudicate(rescan_all=True)
        done.set()

    with caplog.at_level(logging.WARNING, logger="memgraph_neo4j.ingest"), IngestLease(store, space):
        worker = threading.Thread(target=scan, daemon=True)
        worker.start()
        wait_for(lambda: WAITING.format(pid=os.getpid()) in caplog.text or done.is_set(), "the scan to wait")
        assert not done.is_set()
    worker.join(timeout=120)
    assert done.is_set()


def test_a_delete_waits_for_the_running_retraction(neo4j_connection, store, test_store, space, monkeypatch):
    """A retraction paused half-way (after its passages went) holds the lease: `spaces delete` waits for it,
    the retraction finishes whole (no LeaseLost), then the delete deletes the rest."""
    doc = _seeded(store, space)
    paused, go, result = threading.Event(), threading.Event(), {}
    recount = DocumentRepository.recount_schemas

    def slow_recount(self):
        paused.set()
        go.wait(timeout=300)
        return recount(self)

    monkeypatch.setattr(DocumentRepository, "recount_schemas", slow_recount)

    def retract() -> None:
        try:
            with memory_of(store, space) as memory:
                result["report"] = memory.retract(doc)
        except Exception as exc:  # noqa: BLE001 - the test asserts there is none
            result["error"] = exc

    worker = threading.Thread(target=retract, daemon=True)
    worker.start()
    assert paused.wait(timeout=120)
    delete = _Output(_cli(neo4j_connection, "spaces", "delete", space, "--yes"))
    try:
        wait_for(lambda: delete.says(WAITING.format(pid=os.getpid())), "the delete to wait", delete.process)
    finally:
        go.set()
    worker.join(timeout=120)
    delete.finish()
    assert "error" not in result, result
    assert result["report"].documents == 1
    assert snapshot(test_store, space) == {}


def test_a_retraction_whose_lease_goes_stops_before_writing_more(store, test_store, space, monkeypatch):
    """The lease taken by another holder half-way: the retraction's next write transaction finds it gone."""
    doc = _seeded(store, space)
    recount, left = DocumentRepository.recount_schemas, []

    def stolen_then_recount(self):
        test_store.write("steal_lease", space=space, holder=STOLEN.holder, host=STOLEN.host, pid=STOLEN.pid,
                         deleting=None)
        left.append(snapshot(test_store, space))
        return recount(self)

    monkeypatch.setattr(DocumentRepository, "recount_schemas", stolen_then_recount)
    with memory_of(store, space) as memory, pytest.raises(LeaseLost, match="was taken over by pid 1 on other-host"):
        memory.retract(doc)
    assert left and snapshot(test_store, space) == left[0]
    wipe(test_store, space)


@pytest.fixture
def half_deleted(store, test_store, space):
    """A space whose delete died holding the lease (its process gone); (space, SEED's document, pid)."""
    doc = _seeded(store, space)
    gone = subprocess.Popen(["true"])
    gone.wait()
    me = this_process()
    ghost = LeaseHolder(f"{me.host}:{gone.pid}:ghost", me.host, gone.pid, me.started)
    assert LeaseRepository(store, space).acquire(ghost, None, EXPIRY, deleting=True).granted
    yield space, doc, gone.pid
    delete_space(store, space, pattern(space))


def test_a_retraction_refuses_a_half_deleted_space(store, test_store, half_deleted):
    space, doc, pid = half_deleted
    before = snapshot(test_store, space)
    with memory_of(store, space) as memory, pytest.raises(SpaceDeleting) as caught:
        memory.retract(doc)
    assert str(caught.value).startswith(f"memory space '{space}' is half-deleted: the delete run by pid {pid} on ")
    assert snapshot(test_store, space) == before


@pytest.mark.parametrize("command", [("ingest", "{file}"), ("documents", "delete", "{doc}", "--yes"), ("conflicts", "scan"),
                                     ("conflicts", "accept", "c1"), ("conflicts", "reject", "c1"),
                                     ("conflicts", "revert", "c1")])
def test_writers_of_a_half_deleted_space_say_so_in_one_line(neo4j_connection, test_store, half_deleted, command,
                                                           tmp_path):
    space, doc, pid = half_deleted
    before = snapshot(test_store, space)
    text = tmp_path / "new.txt"
    text.write_text("Ada Lovelace wrote the first published algorithm in 1843.")
    run = _cli(neo4j_connection, *(c.format(doc=doc, file=text) for c in command), "--space", space)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 1, err
    assert err.strip().splitlines() == [
        f"error: memory space '{space}' is half-deleted: the delete run by pid {pid} on {this_process().host} "
        f"stopped before it finished; run `memgraph-neo4j spaces delete {space}` again to finish it, then ingest"]
    assert snapshot(test_store, space) == before
