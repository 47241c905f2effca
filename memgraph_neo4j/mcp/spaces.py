"""The memory spaces one MCP server may touch, each with a long-lived `MemoryGraph`.

A server is confined to the spaces it was started with: a tool call naming another space fails before
anything is read or written. Each space keeps one MemoryGraph for the life of the server, so its
retrieval caches (projection, statistics, snapshots) stay warm between calls. Tools run on worker
threads; a lock per space keeps two calls from using one MemoryGraph at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig, Settings
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.server.connection import open_store
from memgraph_neo4j.store import GraphStore


class SpaceError(ValueError):
    """A space outside the server's confinement, or one that holds nothing yet."""


class SpacePool:
    def __init__(self, spaces: Sequence[str], settings: Settings | None = None, store: GraphStore | None = None,
                 extractor: Any = "offline", retrieval: RetrievalConfig | None = None,
                 embedder: Any = "minilm") -> None:
        names = list(dict.fromkeys(spaces))
        if not names:
            raise SpaceError("give at least one memory space (--space NAME)")
        self.settings = settings or Settings()
        self._own_store = store is None
        self.store = store or open_store(self.settings)
        try:
            if isinstance(embedder, str):  # one model for every space
                from memgraph_neo4j.embeddings import make_embedder

                embedder = make_embedder(embedder)
            ontology = load_ontology()
            self._memories: dict[str, MemoryGraph] = {}
            for name in names:  # the first space's extractor serves all: it holds no per-space state
                self._memories[name] = MemoryGraph(space=name, store=self.store, ontology=ontology,
                                                   embedder=embedder, extractor=extractor, settings=self.settings,
                                                   retrieval=retrieval)
                extractor = self._memories[name].extractor
        except BaseException:
            self.close()
            raise
        self._locks = {name: threading.Lock() for name in names}

    @property
    def spaces(self) -> list[str]:
        return list(self._memories)

    @property
    def default(self) -> str:
        return self.spaces[0]

    def name(self, space: str | None) -> str:
        """The space a call means: the one it names, or the server's first; outside the confinement fails."""
        if space is None or space == "":
            return self.default
        if space not in self._memories:
            raise SpaceError(f"space {space!r} is not served here: this server is confined to "
                             f"{', '.join(repr(s) for s in self.spaces)} (whoever starts the server adds it with "
                             f"--space {space})")
        return space

    @contextmanager
    def use(self, space: str | None, must_exist: bool = False) -> Iterator[MemoryGraph]:
        """The space's MemoryGraph, held alone for the duration of the call."""
        name = self.name(space)
        with self._locks[name]:
            memory = self._memories[name]
            if must_exist and not memory.exists():
                raise SpaceError(f"memory space {name!r} is empty: write_memory adds to it first")
            yield memory

    def close(self) -> None:
        """Close every space (its reader threads end, its moved copies are kept on disk), then the store."""
        try:
            for memory in getattr(self, "_memories", {}).values():
                memory.close()
        finally:
            if self._own_store:
                self.store.close()
