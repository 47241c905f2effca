"""The ingest lease of one space (cypher/memory/*_lease.cypher): who holds it, taking, renewing and giving
it back, each one write transaction. What a holder is and when a lease counts as abandoned is decided
above (memory/lease.py)."""

from __future__ import annotations

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


class LeaseRepository(Repository):
    def acquire(self, me: LeaseHolder, stale: str | None, expiry: int) -> LeaseState:
        """Takes the lease if it is free, ours, held by `stale`, or not renewed for `expiry` seconds."""
        [row] = self.store.write("memory/acquire_lease", space=self.space, holder=me.holder, host=me.host,
                                 pid=me.pid, started=me.started, stale=stale, expiry=expiry)
        return LeaseState(bool(row["granted"]), LeaseHolder(row["holder"], row["host"], int(row["pid"]),
                                                            row["started"]), int(row["idle"] or 0))

    def renew(self, holder: str) -> bool:
        """False when the lease is no longer `holder`'s (taken over after it expired)."""
        return bool(self.store.write("memory/renew_lease", space=self.space, holder=holder))

    def release(self, holder: str) -> None:
        self.store.write("memory/release_lease", space=self.space, holder=holder)
