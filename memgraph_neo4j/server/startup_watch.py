"""How long a start waits: while the server reports progress in its debug log, not a fixed wall time.

A server killed mid-write (a crash, a machine stop, a session that ended) replays its transaction log
at the next start before it answers a query. On a 22 GB store with 2,292 transactions to replay that
took 2 min 50 s, and a fixed 180 s wait stopped the server 6 s before recovery finished, so the next
start had to replay again. So the start's timeout bounds silence: every new debug-log line (recovery
reports each 10 %, index and store work log too) moves the deadline, up to ``CEILING`` times the
timeout in all. Recovery's percentages are passed on to the user.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

# an overall bound, so a server that logs without end cannot hold a start for ever: 1 h at the 180 s default
CEILING = 20

_PERCENT = re.compile(r"\b(\d{1,3})% completed")


def log_message(line: str) -> str:
    """Category and message of one debug-log line (JSON lines; the plain format has both in its text).

    Recovery's percentages name their logger only in the category: "[neo4j/a834acff]  10% completed"."""
    line = line.strip()
    if line.startswith("{"):
        try:
            entry = json.loads(line)
            return f"[{entry.get('category', '')}] {entry.get('message', '')}"
        except (ValueError, AttributeError):
            return line
    return line


def recovery_report(message: str) -> str | None:
    """A line for the user when `message` is recovery news, else None."""
    if "Recovery required" in message:
        return "the database was not stopped cleanly: Neo4j is replaying its transaction log before it answers"
    if ".Recovery]" in message or "Recovery in" in message:
        found = _PERCENT.search(message)
        if found:
            return f"recovery {found.group(1)}% done"
        if "mode completed" in message:
            return "recovery done"
    return None


class StartupWatch:
    """Follows the debug log of a starting server; the start gives up only after `stall` silent seconds."""

    def __init__(self, log: Path, stall: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.stall = stall
        self.clock = clock
        self.offset = log.stat().st_size if log.exists() else 0
        started = clock()
        self.deadline = started + stall
        self.limit = started + stall * CEILING
        self.recovering = False

    def poll(self) -> list[str]:
        """Read what the server logged since the last poll; returns the messages worth showing."""
        lines = self._new_lines()
        if lines:
            self.deadline = min(self.clock() + self.stall, self.limit)
        reports = []
        for line in lines:
            report = recovery_report(log_message(line))
            if report:
                self.recovering = True
                reports.append(report)
        return reports

    def expired(self) -> bool:
        return self.clock() >= self.deadline

    def _new_lines(self) -> list[str]:
        if not self.log.exists():
            return []
        size = self.log.stat().st_size
        if size < self.offset:  # rotated (debug.log -> debug.log.01): the new file is read from its start
            self.offset = 0
        if size == self.offset:
            return []
        with self.log.open("rb") as fh:
            fh.seek(self.offset)
            chunk = fh.read()
        complete = chunk.rfind(b"\n") + 1  # a line still being written is read at the next poll
        self.offset += complete
        return chunk[:complete].decode(errors="replace").splitlines()
