"""How a transaction is tried again when Neo4j does not answer, for every statement of a store.

The driver's own retry loop gives each transaction 30 s, logs a warning per attempt and knows nothing of
the others: a server that died mid-ingest cost the in-flight statement 30 s, the lease heartbeat 30 s
more, giving the lease back 30 s more (152 s and 47 warnings). Here one outage has one budget: the first
connection failure any thread of the store sees starts it, every statement retrying the same outage
gives up when it is spent, and a statement started later makes one attempt until the server answers
again. A `neo4j://` cluster changing its leader answers within the budget, so those retries still work.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable, SessionExpired

T = TypeVar("T")
log = logging.getLogger("memgraph_neo4j.store")

RETRY_SECONDS = 15.0  # per outage; a graceful leader switch of a cluster takes a few seconds
CONNECT_SECONDS = 5.0  # one TCP/TLS connect (the driver's default: 30 s per attempt)
ACQUIRE_SECONDS = 10.0  # a pooled connection, routing table included; must exceed CONNECT_SECONDS
FIRST_DELAY, GROWTH, MAX_DELAY = 0.5, 1.5, 4.0  # seconds between attempts: 0.5, 0.75, 1.1, ... 4
# A session's own retry loop makes one attempt with this (t1 - t0 >= 0 is always past it): ours retries.
NO_DRIVER_RETRY = -1.0


class Retry:
    """One store's retry budget; `seconds=0`: one attempt per statement (the launcher's probe)."""

    def __init__(self, seconds: float = RETRY_SECONDS, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._sleep, self._clock = sleep, clock
        self._lock = threading.Lock()
        self._since: float | None = None  # when the current outage began (first connection failure)
        self._last = 0.0  # the latest connection failure

    def _outage(self, now: float) -> float:
        """When the outage that `now`'s failure belongs to began: a failure after a quiet spell (no
        failure for a whole budget) starts a new one."""
        with self._lock:
            if self._since is None or now - self._last > self.seconds:
                self._since = now
            self._last = now
            return self._since

    def _answered(self) -> None:
        with self._lock:
            self._since = None

    def run(self, attempt: Callable[[], T], name: str) -> T:
        """`attempt()` (one transaction), again after a retryable failure until the budget is spent."""
        began: float | None = None
        delay = FIRST_DELAY
        while True:
            try:
                result = attempt()
            except (DriverError, Neo4jError) as exc:
                if not exc.is_retryable():
                    raise
                now = self._clock()
                began = now if began is None else began
                deadline = began + self.seconds
                if isinstance(exc, (ServiceUnavailable, SessionExpired)):
                    deadline = min(deadline, self._outage(now) + self.seconds)
                if now >= deadline:
                    raise
                log.debug("%s failed, trying again (%.0f s left): %s", name, deadline - now, exc)
                self._sleep(min(delay, deadline - now))
                delay = min(delay * GROWTH, MAX_DELAY)
                continue
            if self._since is not None:
                self._answered()
            return result
