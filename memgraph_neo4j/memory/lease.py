"""One ingest at a time per memory space: a lease stored in Neo4j (an `IngestLease` node per space).

Bridging, entity resolution and adjudication read the memory and then write from what they read, so two
ingests interleaving their batches on one space build a graph neither order would (a conflict found twice,
a bridge missed). The lease serialises them: an ingest takes it in a write transaction before it reads or
writes anything, a heartbeat thread renews it while the ingest runs, and it is given back at the end,
also on error. A second ingest of the space waits (one line on stderr naming the holder) and goes on
when the lease is free, so the result is the sequential build in the order the lease was granted.

A holder that died without giving it back (SIGKILL, a crash, its server killed under it) is taken over:
at once when it ran on this machine (same host name and pid namespace) and its process is gone (or its
pid now belongs to another process); otherwise after `expiry` seconds without renewal.

Every write transaction of the ingest first holds the lease in that transaction (GraphStore.guarded, the
node's write lock): when the lease node is gone or another process holds it, the ingest stops before
writing anything more and says which (LeaseLost), however short the time since the last heartbeat.

Deleting a space takes the same lease (`delete_space` below, marked deleting), so a delete waits for a
running ingest and an ingest started meanwhile waits for the delete and then builds the space anew:
concurrent deletes and ingests end as one of their sequential orders. The lease node goes last, so a
delete that died half-way leaves it marked: ingests refuse that half-deleted space (SpaceDeleting) until
a delete run again finishes it; `spaces list` shows it as deleting. Reads are not stopped meanwhile.

Every other writer of a space that reads and then writes in several steps (retraction, conflict verdicts,
a conflict scan, promotion, categorisation: MemoryGraph methods marked `@leased`) holds the same lease, so
it waits for an ingest or a delete, a delete waits for it, and a half-deleted space refuses it. The lease is
re-entrant within one thread: a holder calling another writer of its space (an ingest adjudicating, a
retraction re-checking conflicts) goes on under the lease it holds.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps

from memgraph_neo4j.repository.lease import LeaseHolder, LeaseRepository, LeaseState
from memgraph_neo4j.server.process import pid_alive
from memgraph_neo4j.store import GraphStore

log = logging.getLogger("memgraph_neo4j.ingest")

EXPIRY = 60  # seconds without renewal after which a lease held elsewhere counts as abandoned
POLL = 0.5  # seconds between two attempts of a waiting ingest
# (server, database, space) of the leases this thread holds: a nested writer of one goes on under it
_HELD: ContextVar[frozenset[tuple[str, str, str]]] = ContextVar("held_leases", default=frozenset())


class LeaseLost(RuntimeError):
    """The ingest's lease was taken over or its space deleted while it ran: it stopped before writing more."""


class SpaceDeleting(RuntimeError):
    """The space is half-deleted (a delete died holding its lease): it takes no ingest until deleted again."""


def _namespace() -> str:
    """This process's pid namespace (containers on one host may share a host name, never a namespace)."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def _start_time(pid: int) -> str | None:
    """When the process started (clock ticks since boot, /proc/PID/stat field 22); None if unknown."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def this_process(token: str | None = None) -> LeaseHolder:
    pid, host = os.getpid(), socket.gethostname()
    return LeaseHolder(f"{host}:{pid}:{token or uuid.uuid4().hex[:12]}", host, pid,
                       f"{_namespace()}@{_start_time(pid) or ''}")


def holder_dead(holder: LeaseHolder, me: LeaseHolder) -> bool:
    """True only when the holder certainly is gone: it ran here and its process no longer exists (or its
    pid is another process now). A holder elsewhere cannot be checked: its lease has to expire."""
    if holder.host != me.host or not holder.started or not me.started:
        return False
    namespace, _, started = holder.started.partition("@")
    if namespace != me.started.partition("@")[0]:
        return False
    if not pid_alive(holder.pid):
        return True
    now = _start_time(holder.pid)
    return bool(started and now and now != started)


class IngestLease:
    """`with IngestLease(store, space): ...` holds the space's ingest lease for the block."""

    def __init__(self, store: GraphStore, space: str, expiry: int = EXPIRY, poll: float = POLL,
                 say: Callable[[str], None] = log.warning, sleep: Callable[[float], None] = time.sleep,
                 deleting: bool = False) -> None:
        """`deleting`: held to delete the space (the lease is marked so; ingests wait for it)."""
        if expiry < 3:
            raise ValueError(f"expiry must be >= 3 seconds, not {expiry}")
        self.space, self.expiry, self.poll, self.deleting = space, expiry, poll, deleting
        self.repository = LeaseRepository(store, space)
        self.me = this_process()
        self.waited = 0.0  # seconds spent waiting for other ingests
        self.took_over: LeaseHolder | None = None  # a dead holder whose lease this one took
        self._say, self._sleep = say, sleep
        self._stop = threading.Event()
        self._lost: LeaseState | None = None  # who holds the lease since this one lost it
        self._gone = False  # the lease node was deleted under this holder (its space deleted)
        self._heartbeat: threading.Thread | None = None
        self._guard = None
        self.told: LeaseHolder | None = None  # the last holder this one said it waits for
        self.dropped: list[str] = []  # a delete's dropped projections (delete_space)
        self.store = store
        self._key = _key(store, space)
        self._nested = False  # this thread holds the lease already: this block runs under it
        self._held = None

    def acquire(self) -> None:
        began, stale, told = time.monotonic(), None, None
        while True:
            state = self.repository.acquire(self.me, stale, self.expiry, self.deleting)
            if state.granted:
                self.waited = time.monotonic() - began
                if state.version is not None:
                    self.store.versions[self.space] = state.version
                return
            dead = holder_dead(state.holder, self.me)
            if state.deleting and not self.deleting and (dead or state.idle >= self.expiry):
                raise SpaceDeleting(
                    f"memory space {self.space!r} is half-deleted: the delete run by pid {state.holder.pid} on "
                    f"{state.holder.host} stopped before it finished; run `memgraph-neo4j spaces delete "
                    f"{self.space}` again to finish it, then ingest")
            if dead:
                # taken by the next attempt (a compare-and-set on its holder id), if nobody was faster
                self.took_over, stale = state.holder, state.holder.holder
                log.info("memory space %r: taking over the ingest lease of pid %d on %s (its process is gone)",
                         self.space, state.holder.pid, state.holder.host)
                continue
            stale = None
            if told != state.holder.holder:
                told, self.told = state.holder.holder, state.holder
                self._say(self._waiting(state))
            self._sleep(self.poll)

    def _waiting(self, state: LeaseState) -> str:
        h = state.holder
        doing = "deleted" if state.deleting else "ingested"
        return (f"memory space {self.space!r} is being {doing} by pid {h.pid} on {h.host} (lease renewed "
                f"{state.idle}s ago): waiting for it to finish; a holder that died is taken over (after "
                f"{self.expiry}s if it ran on another machine)")

    def _lost_message(self) -> str:
        if self._gone:
            return (f"memory space {self.space!r} was deleted while this ingest ran (its ingest lease is gone): "
                    "the ingest stopped before writing more; ingest again to build the space anew")
        h = self._lost.holder if self._lost is not None else None
        by = f" by pid {h.pid} on {h.host}" if h is not None and h.holder else ""
        if self._lost is not None and self._lost.deleting:
            return (f"memory space {self.space!r} is being deleted{by}: it took over this ingest's lease (not "
                    f"renewed for {self.expiry}s); the ingest stopped before writing more")
        return (f"the ingest lease of memory space {self.space!r} was taken over{by} (not renewed for "
                f"{self.expiry}s): the ingest stopped before writing more; run it again, it resumes where it "
                "stopped")

    def _lose(self, state: LeaseState | None) -> None:
        self._gone, self._lost = state is None, state

    def check(self) -> None:
        """LeaseLost if the lease node was deleted (the space with it) or another process took the lease."""
        if self._gone or self._lost is not None:
            raise LeaseLost(self._lost_message())

    def _hold(self, state: LeaseState | None) -> None:
        """The write guard: the lease still ours, or LeaseLost (the transaction writes nothing)."""
        if state is None or not state.granted:
            self._lose(state)
        self.check()

    def _beat(self) -> None:
        while not self._stop.wait(self.expiry / 4):
            try:
                state = self.repository.hold(self.me.holder)
                if state is None or not state.granted:
                    self._lose(state)
                    return
            except Exception as exc:  # noqa: BLE001 - the ingest's own statements report the server
                log.debug("renewing the ingest lease of %s failed: %s", self.space, exc)

    def release(self) -> None:
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join()
        self.repository.release(self.me.holder)

    def __enter__(self) -> IngestLease:
        if self._key in _HELD.get() and not self.deleting:
            self._nested = True
            return self
        self.acquire()
        self._held = _HELD.set(_HELD.get() | {self._key})
        self._heartbeat = threading.Thread(target=self._beat, daemon=True, name=f"lease-{self.space}")
        self._heartbeat.start()
        self._guard = self.repository.guard(self.me.holder, self._hold)
        self._guard.__enter__()
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if self._nested:
            return
        if self._held is not None:
            _HELD.reset(self._held)
            self._held = None
        if self._guard is not None:
            self._guard.__exit__(None, None, None)
            self._guard = None
        try:
            self.release()
        except Exception:
            if kind is None:
                raise
            # the ingest failed already (often: the server went away); its error is the one to see, and
            # the lease left behind is taken over by the next ingest
            log.debug("could not release the ingest lease of %s", self.space, exc_info=True)


def _key(store: GraphStore, space: str) -> tuple[str, str, str]:
    return str(getattr(store, "uri", "")), str(getattr(store, "database", "")), space


def version_under_lease(store: GraphStore, space: str) -> int | None:
    """The space's memory version without a read, while this thread holds its lease: the version seen when
    the lease was taken, or the last one a write of this process made since (GraphStore.versions). Nobody
    else moves it meanwhile: every writer of a space holds its lease. None when not held (read it)."""
    if _key(store, space) not in _HELD.get():
        return None
    return store.versions.get(space)


def leased(method):
    """A method that writes its space in several steps runs holding the space's lease (its object's
    `store` and `space`, or its repository's)."""
    @wraps(method)
    def under_lease(self, *args, **kwargs):
        owner = getattr(self, "repository", self)
        with IngestLease(owner.store, owner.space):
            return method(self, *args, **kwargs)
    return under_lease


def delete_space(store: GraphStore, space: str, graph_pattern: str | None = None,
                 say: Callable[[str], None] = log.warning, expiry: int = EXPIRY, poll: float = POLL) -> IngestLease:
    """Deletes a space under its ingest lease, marked deleting: waits for a running ingest of it (one line
    via `say`, naming the holder), deletes everything but the lease node, drops the space's GDS projections
    (names matching `graph_pattern`), then gives the lease back, which deletes its node. A delete that died
    half-way left the marked lease behind (ingests refuse the space): running it again finishes it.
    Returns the lease it held (`waited`, `took_over`, `dropped`: the projections dropped)."""
    from memgraph_neo4j.repository.documents import delete_space as delete_nodes

    with IngestLease(store, space, expiry, poll, say, deleting=True) as lease:
        lease.dropped = delete_nodes(store, space, graph_pattern)
    return lease
