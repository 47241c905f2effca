"""How the in-process copies of a space follow its writes: by what changed, not by reading it all again.

Every copy (layer vectors, BM25, seed statistics, titles, the PPR graph) remembers the memory version it
holds. When a search reads a newer version, the copy asks the feed for the changes since its version:
the nodes stamped after it (repository/changes.py), read once and shared by every copy that holds the
same version. The copy applies them as upserts, and the nodes a retraction deleted (its tombstones) as
removals, and holds the version they reach.

The feed answers None, and the copy is read whole as before, when
- a write since then was unstamped (cypher/memory/bump_version's `full`; ingests, verdicts, conversation
  ingests and retractions are stamped: repository/batch.py, conflicts.py, documents.py), or the
  tombstones since then were pruned (cypher/memory/prune_tombstones), or
- more than FULL_FRACTION of the space changed: applying a row costs about what reading it costs, and a
  whole read also starts the copies' overlays afresh (retrieval/bm25_index.py compacts at 10 %).

The writing process reads its own writes back the same way: one read of what it wrote (a one-message
write: a few dozen nodes) instead of handing its rows over, so every process follows one path.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from memgraph_neo4j.repository.changes import ChangeRepository, Changes, Retry

if TYPE_CHECKING:
    from memgraph_neo4j.retrieval.persisted import CopyFiles

FULL_FRACTION = 0.25  # changed nodes per node of the space above which a copy is read whole
MIN_ROWS = 1_000  # ... but never fewer rows than this (a small space's ingest batch)
READ_ATTEMPTS = 3  # reads of the changes while writes keep committing under them, then a whole read


class ChangeFeed:
    """The changes of one space since a version, read once per (since, version) and shared by its copies."""

    def __init__(self, repository: ChangeRepository, space_size: Callable[[], int]) -> None:
        """`space_size`: the space's nodes now, roughly (its vectors): what FULL_FRACTION is a fraction of."""
        self.repository, self.space_size = repository, space_size
        self._lock = threading.Lock()
        self._last: Changes | None = None
        self.reads = 0  # observable: tests assert one read per catch-up, shared by the copies

    def since(self, held: int, version: int) -> Changes | None:
        """What a copy at version `held` applies to reach `version` or later, or None: read it whole."""
        with self._lock:
            last = self._last
            if last is not None and last.since == held and last.version >= version:
                return last if last.complete else None
            limit = max(MIN_ROWS, int(FULL_FRACTION * self.space_size()))
            for _ in range(READ_ATTEMPTS):
                try:
                    changes = self.repository.since(held, limit)
                except Retry:
                    continue
                self.reads += 1
                self._last = changes
                return changes if changes.complete else None
            return None


T = TypeVar("T")


class Followed(Generic[T]):
    """One in-process copy that follows the memory: at a newer version it applies the changes since the
    version it holds, or is built whole (`build`) when the feed says so or it has none yet. `fits`: whether
    the space at a version is small enough to hold (else the copy is None and callers read the database).
    Use it under `hold`: an apply must not run while another thread reads the copy."""

    def __init__(self, feed: ChangeFeed, build: Callable[[], T], apply: Callable[[T, Changes], None],
                 fits: Callable[[int], bool] = lambda version: True) -> None:
        self.feed, self.build, self.apply, self.fits = feed, build, apply, fits
        self._held: tuple[int, T | None] | None = None
        self._lock = threading.RLock()
        self.builds = 0  # observable: tests assert one whole read, then catch-ups
        self.catch_ups = 0
        # kept on disk (retrieval/persisted.py): the files, this copy's name there, the space's epoch the
        # copy was read in, and the version last written (or loaded)
        self.files: CopyFiles | None = None
        self.name = ""
        self._epoch: str | None = None
        self._kept: int | None = None
        self._worth = False

    def keep_in(self, files: CopyFiles | None, name: str) -> None:
        """Start from the file `name` when one fits, and write it after a long whole read (and `persist`)."""
        self.files, self.name = files, name

    def at(self, version: int) -> T | None:
        """The copy at `version` or later (None: too large to hold). Call under `hold` to use it."""
        with self._lock:
            held = self._held
            if held is not None and held[0] >= version:
                return held[1]
            if not self.fits(version):
                self._held = (version, None)
                return None
            if held is None and self.files is not None and (kept := self.files.load(self.name, version)):
                held = self._held = (kept.version, kept.payload)
                self._epoch, self._kept, self._worth = kept.epoch, kept.version, True
                if held[0] >= version:
                    return held[1]
            if held is not None and held[1] is not None:
                changes = self.feed.since(held[0], version)
                # an apply that returns False kept the changes but asks for a whole read (ppr/graph_copy: rows of
                # deleted nodes past a share of the copy)
                if changes is not None and (not len(changes) or self.apply(held[1], changes) is not False):
                    self.catch_ups += bool(len(changes))
                    self._held = (max(version, changes.version), held[1])
                    return held[1]
            self._held = None  # the old copy can go before the new one is read
            # the epoch before the read: a space deleted and written again during it has another one
            epoch = self.files.current_epoch() if self.files is not None else None
            began = time.perf_counter()
            copy = self.build()
            self.builds += 1
            self._held, self._epoch, self._kept = (version, copy), epoch, None
            self._worth = self.files is not None and time.perf_counter() - began >= self.files.min_build_s
            if self._worth and epoch is None:
                self.files.ensure_epoch()  # a space written before epochs: the next process keeps its copies
            self.persist()
            return copy

    def persist(self) -> None:
        """Write the copy held to its file when it is worth keeping (loaded from one, or its whole read took
        `min_build_s`) and moved since it was written or loaded."""
        with self._lock:
            held, files = self._held, self.files
            if (files is None or not self._worth or held is None or held[1] is None or self._epoch is None
                    or held[0] == self._kept):
                return
            if files.save(self.name, held[0], self._epoch, held[1]):
                self._kept = held[0]

    @property
    def kept_epoch(self) -> str | None:
        """The space's epoch the copy held was read in, when it is kept on disk (else None)."""
        return self._epoch if self.files is not None else None

    def hold(self) -> threading.RLock:
        return self._lock

    @property
    def held(self) -> tuple[int, T | None] | None:
        """(version, copy) held now, None before the first `at`."""
        return self._held
