"""What the retrieval methods of one space share: the repositories, the embedder, the configuration
and the per-memory-version state (layer vectors, seed statistics, the PPR projection and engine).

Build one per space and process and hand it to every method (retrieval.make_retriever): the
exports and projections it keeps then serve them all.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.changes import ChangeRepository
from memgraph_neo4j.repository.layers import LayerRepository
from memgraph_neo4j.repository.projections import ProjectionRepository
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.repository.statistics import StatisticsRepository
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer, episode_title
from memgraph_neo4j.retrieval.bm25_index import SpaceBm25
from memgraph_neo4j.retrieval.changes import ChangeFeed, Followed
from memgraph_neo4j.retrieval.layers import LayerSearch
from memgraph_neo4j.retrieval.persisted import copy_files
from memgraph_neo4j.retrieval.ppr import make_engine
from memgraph_neo4j.retrieval.projection import Projections
from memgraph_neo4j.retrieval.question_entities import TitleIndex
from memgraph_neo4j.retrieval.statistics import SeedStatisticsSource, SpaceCountsCache
from memgraph_neo4j.store import GraphStore

T = TypeVar("T")
# reader threads per context: one serves a caller; a few callers searching one MemoryGraph at once queue
# their reads behind these (a reader never waits on another, so they cannot deadlock)
READERS = 2


class RetrievalContext:
    def __init__(self, store: GraphStore, space: str, embedder, config: RetrievalConfig | None = None,
                 gds: Any = None) -> None:
        """`gds`: a graphdatascience client for the "client" engine (default: one on the store's driver)."""
        self.space, self.embedder = space, embedder
        self.config = config or RetrievalConfig()
        self.search = SearchRepository(store, space)
        statistics = StatisticsRepository(store, space)
        counts = self.counts = SpaceCountsCache(statistics)
        # one feed of the space's changes for every copy below (retrieval/changes.py)
        self.changes = ChangeFeed(ChangeRepository(store, space), lambda: (c := counts.latest()) and c.vectors or 0)
        counts.feed = self.changes  # the counts follow the same feed
        self.engine = make_engine(ProjectionRepository(store, space), self.config, gds, self.changes)
        self.projections = Projections(self.engine, space, self.config)
        self.layers = LayerSearch(LayerRepository(store, space), embedder.dimension, self.config,
                                  self.projections.prefix, counts, self.changes)
        self.statistics = SeedStatisticsSource(statistics, counts, self.config.snapshot_max_mentions, self.changes)
        self.bm25 = SpaceBm25(self.search, self.layers.repository.version, counts, self.changes)
        self.titles = TitleIndex(self.search.passage_titles, self.changes)
        # the copies kept on disk between processes (retrieval/persisted.py), unless copies_dir is None
        self.files = copy_files(self.config, store, space, embedder, self.changes.repository)
        for name, followed in self.followed().items():
            followed.keep_in(self.files, name)
        self._readers: ThreadPoolExecutor | None = None  # started by the first `ahead`, ended by `close`
        self._readers_lock = threading.Lock()

    def ahead(self, work: Callable[..., T], *args: Any) -> Future[T]:
        """`work(*args)` on a reader thread, for reads a search needs only after embedding the question:
        ONNX Runtime releases the GIL while it embeds, and Neo4j answers on the other core (a long-lived
        MuSiQue search: the version check and the names read, ~5 ms, hidden behind the 6.5 ms embedding).
        With `concurrent_reads` off it runs at once in this thread. Either way `result()` gives its value
        or raises its own exception."""
        if not self.config.concurrent_reads:
            future: Future[T] = Future()
            try:
                future.set_result(work(*args))
            except Exception as error:  # noqa: BLE001 - handed to the caller by result(), as from a thread
                future.set_exception(error)
            return future
        with self._readers_lock:
            if self._readers is None:
                self._readers = ThreadPoolExecutor(READERS, thread_name_prefix=f"memgraph-reads-{self.space}")
            return self._readers.submit(work, *args)

    def prepare_ahead(self, version: int) -> Future[None] | None:
        """The local engine's graph copy caught up to `version` (and its push form corrected) on a reader
        thread, while the search embeds, reads and searches the layers (Neo4j answers those on the other
        core): after a write at 100k passages that work is 30-90 ms, the layers' part ~40 ms. The search's
        own `prepare` then waits for it under the engine's lock and finds it done: the same work, earlier."""
        if getattr(self.engine, "needs_projection", True):
            return None
        return self.ahead(self.engine.prepare, self.projections.name(version), version)

    def followed(self) -> dict[str, Followed]:
        """The copies that follow the writes, by the name of their file."""
        copies = {"layers": self.layers.copy, "bm25": self.bm25.copy, "statistics": self.statistics.copy,
                  "titles": self.titles.copy}
        if isinstance(getattr(self.engine, "copy", None), Followed):  # the local engine's PPR graph
            copies["graph"] = self.engine.copy
        return copies

    def close(self, persist: bool = True) -> None:
        """End the reader threads (waiting for reads under way), and write the kept copies that moved since
        they were read (retrieval/persisted.py); a later search starts the threads again. `persist` False:
        write none (the space was deleted: its files go too)."""
        with self._readers_lock:
            readers, self._readers = self._readers, None
        if readers is not None:
            readers.shutdown(wait=True)
        if not persist:
            if self.files is not None:
                self.files.forget()
            return
        for followed in self.followed().values():
            followed.persist()
        if callable(getattr(self.engine, "persist", None)):  # the local engine's push form, after its graph
            self.engine.persist()

    def projection(self) -> str:
        """The name of the projection for the memory's current version, built if missing."""
        return self.projections.ensure(self.layers.repository.state(self.projections.prefix))

    def search_graph(self) -> tuple[str, int]:
        """The graph a search ranks on at the memory's current version, and that version: a GDS projection,
        built if missing, unless the engine keeps its own copy (the local engine)."""
        state = self.layers.repository.state(self.projections.prefix)
        if getattr(self.engine, "needs_projection", True):
            return self.projections.ensure(state), state.version
        return self.projections.name(state.version), state.version

    def embed(self, question: str) -> list[float]:
        return self.embedder.embed_query(question).tolist()

    def finish(self, result: RetrievalResult, timer: StageTimer, known: list[Hit] = (),
               version: int | None = None) -> RetrievalResult:
        """Passage texts (from hits that already carry them, `known`, else read) and every passage's
        provenance (page, heading; an episode's speaker and time as its name), in one read. `version`: the
        memory version the search read; then no read when every hit has its text and the space at that version
        has no provenance to show (benchmark corpora: the read cost dense 2.7 ms of 6.5)."""
        texts = {h.id: h.text for h in known if h.text is not None}
        for hit in result.passages:
            hit.text = hit.text if hit.text is not None else texts.get(hit.id)
        plain = version is not None and self.counts(version).located == 0
        if result.passages and not (plain and all(h.text is not None for h in result.passages)):
            found = self.search.passage_details([h.id for h in result.passages])
            for hit in result.passages:
                if (row := found.get(hit.id)) is not None:
                    hit.text = hit.text if hit.text is not None else row.text
                    hit.page, hit.page_end, hit.heading = row.page, row.page_end, row.heading
                    hit.sections = json.loads(row.sections) if row.sections else None
                    hit.name = hit.name or episode_title(row.speaker, row.time)
        timer.lap("fetch")
        result.timings_ms = timer.rounded()
        return result
