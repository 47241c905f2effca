"""The ingest lease of one space (cypher/memory/*_lease.cypher): who holds it, taking, renewing and giving
it back, each one write transaction. What a holder is and when a lease counts as abandoned is decided
above (memory/lease.py)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from memgraph_neo4j.repository.base import Repository


@dataclass(frozen=True)
class LeaseHolder:
    holder: str  # host:pid:token of the process (and MemoryGraph) that holds it
    host: str
    pid: int
    started: str | None  # the holder process's start time (tells a reused pid apart)


@dataclass(frozen=True)
class LeaseState:
    granted: bool  # the caller holds it now
    holder: LeaseHolder
    idle: int  # seconds since its holder last renewed it
    deleting: bool = False  # a space deletion holds it (or died holding it)
    version: int | None = None  # the space's memory version when taken (acquire only)


def _state(row: dict) -> LeaseState:
    return LeaseState(bool(row["granted"]), LeaseHolder(row["holder"], row["host"], int(row["pid"] or 0),
                                                        row["started"]),
                      int(row["idle"] or 0), bool(row["deleting"]), row.get("version"))


class LeaseRepository(Repository):
    def acquire(self, me: LeaseHolder, stale: str | None, expiry: int, deleting: bool = False) -> LeaseState:
        """Takes the lease if it is free, ours, held by `stale`, or not renewed for `expiry` seconds; never
        one marked deleting unless `deleting` (a space deletion, which marks the lease it takes)."""
        [row] = self.store.write("memory/acquire_lease", space=self.space, holder=me.holder, host=me.host,
                                 pid=me.pid, started=me.started, stale=stale, expiry=expiry, deleting=deleting)
        return _state(row)

    def hold(self, holder: str) -> LeaseState | None:
        """Renews the lease if it is `holder`'s; who holds it now (granted: still `holder`), None when the
        lease node is gone (the space was deleted). Also the write guard of an ingest (memory/lease.py)."""
        rows = self.store.write("memory/renew_lease", space=self.space, holder=holder)
        return _state(rows[0]) if rows else None

    def guard(self, holder: str, check: Callable[[LeaseState | None], None]) -> AbstractContextManager[None]:
        """While the block runs, every write transaction of this thread holds the lease first (the statement
        of `hold`, in the same transaction) and `check` sees who holds it: it raises to write nothing."""
        return self.store.guarded("memory/renew_lease", {"space": self.space, "holder": holder},
                                  lambda rows: check(_state(rows[0]) if rows else None))

    def renew(self, holder: str) -> bool:
        """False when the lease is no longer `holder`'s (taken over, or its node deleted)."""
        state = self.hold(holder)
        return state is not None and state.granted

    def release(self, holder: str) -> None:
        self.store.write("memory/release_lease", space=self.space, holder=holder)
