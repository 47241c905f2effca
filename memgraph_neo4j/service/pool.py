"""The spaces one service process serves, each with one long-lived `MemoryGraph` whose copies stay warm.

Every request about a space uses that MemoryGraph under the space's lock (searches take ~5-90 ms; the
copies are not built for two threads to move at once). Jobs (long ingests, service/jobs.py) write through
a MemoryGraph of their own, so a search never waits for a whole ingest: the warm copies follow the job's
committed batches through the space's change feed, as they follow another process's writes
(retrieval/changes.py). The embedder and the extractor (spaCy: seconds to load) are built once and shared.

The MCP server mounted at /mcp is handed this pool (its `use`, `spaces`, `default`): one set of copies.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig, Settings
from memgraph_neo4j.server.connection import open_store
from memgraph_neo4j.store import GraphStore
from memgraph_neo4j.validation import check_space

# Spaces held warm at once: each holds its copies (~25 MB at MuSiQue's 11k passages, ~2.6 GB at 100k);
# the least recently used one beyond this is closed (its copies are written to disk, and read back later).
MAX_OPEN = 8


class SpaceNotServed(ValueError):
    """A space outside the service's confinement (--space), or one that holds nothing yet."""

    status = 404


class ServicePool:
    def __init__(self, settings: Settings | None = None, store: GraphStore | None = None,
                 spaces: Sequence[str] = (), extractor: Any = "offline", embedder: Any = "minilm",
                 retrieval: RetrievalConfig | None = None, max_open: int = MAX_OPEN) -> None:
        """`spaces`: the only spaces served (empty: any space a token may reach)."""
        for name in spaces:
            check_space(name)
        self.settings = settings or Settings()
        self.confined = list(dict.fromkeys(spaces))
        self._own_store = store is None
        self.store = store or open_store(self.settings)
        if isinstance(embedder, str):
            from memgraph_neo4j.embeddings import make_embedder

            embedder = make_embedder(embedder)
        self.embedder, self._extractor, self.retrieval = embedder, extractor, retrieval
        self._readers, self._writers = _Kept(self._graph, max_open), _Kept(self._graph, max_open)  # jobs: their own
        self._ontology = None
        self._closed = False

    # ----- the MCP server's view (mcp/spaces.SpacePool's interface) ----------------------------------
    @property
    def spaces(self) -> list[str]:
        """The spaces served: the confinement, else the spaces the database holds now."""
        if self.confined:
            return list(self.confined)
        with self.memory("default") as memory:
            return [s.name for s in memory.spaces()] or ["default"]

    @property
    def default(self) -> str:
        return self.confined[0] if self.confined else "default"

    def name(self, space: str | None) -> str:
        if space is None or space == "":
            return self.default
        check_space(space)
        if self.confined and space not in self.confined:
            raise SpaceNotServed(f"space {space!r} is not served here: this service is confined to "
                                 f"{', '.join(repr(s) for s in self.confined)} (whoever starts it adds "
                                 f"--space {space})")
        return space

    @contextmanager
    def use(self, space: str | None, must_exist: bool = False) -> Iterator[MemoryGraph]:
        """The space's warm MemoryGraph, held alone for the call."""
        with self.memory(self.name(space)) as memory:
            if must_exist and not memory.exists():
                raise SpaceNotServed(f"memory space {memory.space!r} is empty: write to it first")
            yield memory

    # ----- the service's own -----------------------------------------------------------------------
    @property
    def ontology(self):
        if self._ontology is None:
            from memgraph_neo4j.memory.ontology import load_ontology

            self._ontology = load_ontology()
        return self._ontology

    def _graph(self, space: str) -> MemoryGraph:
        return MemoryGraph(space=space, store=self.store, ontology=self.ontology, embedder=self.embedder,
                           extractor=self._extractor, settings=self.settings, retrieval=self.retrieval)

    @contextmanager
    def memory(self, space: str) -> Iterator[MemoryGraph]:
        """The space's warm MemoryGraph (reads and small writes), held alone for the call."""
        with self._readers.hold(space) as memory:
            yield memory
            self._share_extractor(memory)

    @contextmanager
    def writer(self, space: str) -> Iterator[MemoryGraph]:
        """The space's MemoryGraph for jobs, kept between them: its writer's copies (entity and fact vectors,
        read whole on first use: 7 s per one-sentence job on MuSiQue when each job built its own) stay warm.
        Its writes do not hold the warm reader's lock; jobs run one at a time (service/jobs.py)."""
        with self._writers.hold(self.name(space)) as memory:
            yield memory
            self._share_extractor(memory)

    def _share_extractor(self, memory: MemoryGraph) -> None:
        built = memory._extractor  # noqa: SLF001 - built on first use (spaCy, seconds): shared from then on
        if built is not None and isinstance(self._extractor, str):
            self._extractor = built

    def forget(self, space: str) -> None:
        """Drop the MemoryGraphs of a deleted space (its copies went with it)."""
        self._readers.drop(space)
        self._writers.drop(space)

    def gauges(self) -> dict[str, dict[str, float]]:
        """Per warm space: the memory version its copies hold, and the bytes of their files on disk."""
        found = {}
        for space, memory in self._readers.items():
            context = memory._retrieval  # noqa: SLF001 - only a space searched has copies
            if context is None:
                continue
            versions = [held[0] for f in context.followed().values() if (held := f.held()) is not None]
            size = 0
            if context.files is not None:
                for name in context.followed():
                    path = context.files.path(name)
                    size += path.stat().st_size if path.is_file() else 0
            found[space] = {"memory_version": max(versions, default=0), "copy_bytes": size}
        return found

    def close(self) -> None:
        """Close every space (their copies are written to disk), then the store if the pool opened it. Twice
        is once: the app's shutdown closes it, and `serve` again on its way out."""
        if self._closed:
            return
        self._closed = True
        try:
            self._readers.close()
            self._writers.close()
        finally:
            if self._own_store:
                self.store.close()


class _Kept:
    """MemoryGraphs by space, each used by one thread at a time; beyond `most`, the least recently used is
    closed once no call holds it (its copies are written to disk, and read back when it is opened again)."""

    def __init__(self, make, most: int) -> None:
        self.make, self.most = make, most
        self._graphs: OrderedDict[str, MemoryGraph] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()  # over the two dicts

    @contextmanager
    def hold(self, space: str) -> Iterator[MemoryGraph]:
        with self._guard:
            lock = self._locks.setdefault(space, threading.Lock())
        with lock:
            with self._guard:
                memory = self._graphs.get(space)
                if memory is None:
                    memory = self._graphs[space] = self.make(space)
                self._graphs.move_to_end(space)
                evicted = []
                while len(self._graphs) > self.most:
                    evicted.append(self._graphs.popitem(last=False))
            for name, old in evicted:
                threading.Thread(target=self._close, args=(name, old), daemon=True).start()
            yield memory

    def _close(self, space: str, memory: MemoryGraph) -> None:
        with self._locks[space]:  # after the call that holds it, if any
            memory.close()

    def items(self) -> list[tuple[str, MemoryGraph]]:
        with self._guard:
            return list(self._graphs.items())

    def drop(self, space: str) -> None:
        with self._guard:
            memory = self._graphs.pop(space, None)
        if memory is not None:
            self._close(space, memory)

    def close(self) -> None:
        with self._guard:
            graphs, self._graphs = list(self._graphs.items()), OrderedDict()
        for space, memory in graphs:
            self._close(space, memory)
