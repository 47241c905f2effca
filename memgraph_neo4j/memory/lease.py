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
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable

from memgraph_neo4j.repository.lease import LeaseHolder, LeaseRepository, LeaseState
from memgraph_neo4j.server.process import pid_alive
from memgraph_neo4j.store import GraphStore

log = logging.getLogger("memgraph_neo4j.ingest")

EXPIRY = 60  # seconds without renewal after which a lease held elsewhere counts as abandoned
POLL = 0.5  # seconds between two attempts of a waiting ingest


class LeaseLost(RuntimeError):
    """The lease expired while this ingest still ran and another one took it: stop before writing more."""


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
                 say: Callable[[str], None] = log.warning, sleep: Callable[[float], None] = time.sleep) -> None:
        if expiry < 3:
            raise ValueError(f"expiry must be >= 3 seconds, not {expiry}")
        self.space, self.expiry, self.poll = space, expiry, poll
        self.repository = LeaseRepository(store, space)
        self.me = this_process()
        self.waited = 0.0  # seconds spent waiting for other ingests
        self.took_over: LeaseHolder | None = None  # a dead holder whose lease this one took
        self._say, self._sleep = say, sleep
        self._stop = threading.Event()
        self._lost: LeaseHolder | None = None
        self._heartbeat: threading.Thread | None = None

    def acquire(self) -> None:
        began, stale, told = time.monotonic(), None, None
        while True:
            state = self.repository.acquire(self.me, stale, self.expiry)
            if state.granted:
                self.waited = time.monotonic() - began
                return
            if holder_dead(state.holder, self.me):
                # taken by the next attempt (a compare-and-set on its holder id), if nobody was faster
                self.took_over, stale = state.holder, state.holder.holder
                log.info("memory space %r: taking over the ingest lease of pid %d on %s (its process is gone)",
                         self.space, state.holder.pid, state.holder.host)
                continue
            stale = None
            if told != state.holder.holder:
                told = state.holder.holder
                self._say(self._waiting(state))
            self._sleep(self.poll)

    def _waiting(self, state: LeaseState) -> str:
        h = state.holder
        return (f"memory space {self.space!r} is being ingested by pid {h.pid} on {h.host} (lease renewed "
                f"{state.idle}s ago): waiting for it to finish; a holder that died is taken over (after "
                f"{self.expiry}s if it ran on another machine)")

    def check(self) -> None:
        """LeaseLost if another ingest took the lease over (this one did not renew it for `expiry` s)."""
        if self._lost is not None:
            raise LeaseLost(f"the ingest lease of memory space {self.space!r} was taken over (not renewed for "
                            f"{self.expiry}s): run the ingest again; it resumes where it stopped")

    def _beat(self) -> None:
        while not self._stop.wait(self.expiry / 4):
            try:
                if not self.repository.renew(self.me.holder):
                    self._lost = self.me
                    return
            except Exception as exc:  # noqa: BLE001 - the ingest's own statements report the server
                log.debug("renewing the ingest lease of %s failed: %s", self.space, exc)

    def release(self) -> None:
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join()
        self.repository.release(self.me.holder)

    def __enter__(self) -> IngestLease:
        self.acquire()
        self._heartbeat = threading.Thread(target=self._beat, daemon=True, name=f"lease-{self.space}")
        self._heartbeat.start()
        return self

    def __exit__(self, kind, exc, tb) -> None:
        try:
            self.release()
        except Exception:
            if kind is None:
                raise
            # the ingest failed already (often: the server went away); its error is the one to see, and
            # the lease left behind is taken over by the next ingest
            log.debug("could not release the ingest lease of %s", self.space, exc_info=True)
