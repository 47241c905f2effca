"""What the retrieval methods of one space share: the repositories, the embedder, the configuration
and the per-memory-version state (layer vectors, seed statistics, the PPR projection and engine).

Build one per space and process and hand it to every method (retrieval.make_retriever): the
exports and projections it keeps then serve them all.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.layers import LayerRepository
from memgraph_neo4j.repository.projections import ProjectionRepository
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.repository.statistics import StatisticsRepository
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer
from memgraph_neo4j.retrieval.bm25_index import SpaceBm25
from memgraph_neo4j.retrieval.layers import LayerSearch
from memgraph_neo4j.retrieval.ppr import make_engine
from memgraph_neo4j.retrieval.projection import Projections
from memgraph_neo4j.retrieval.question_entities import TitleIndex
from memgraph_neo4j.retrieval.statistics import SeedStatisticsSource, SpaceCountsCache
from memgraph_neo4j.store import GraphStore


class RetrievalContext:
    def __init__(self, store: GraphStore, space: str, embedder, config: RetrievalConfig | None = None,
                 gds: Any = None) -> None:
        """`gds`: a graphdatascience client for the "client" engine (default: one on the store's driver)."""
        self.space, self.embedder = space, embedder
        self.config = config or RetrievalConfig()
        self.search = SearchRepository(store, space)
        self.engine = make_engine(ProjectionRepository(store, space), self.config, gds)
        self.projections = Projections(self.engine, space, self.config)
        statistics = StatisticsRepository(store, space)
        counts = self.counts = SpaceCountsCache(statistics)
        self.layers = LayerSearch(LayerRepository(store, space), embedder.dimension, self.config,
                                  self.projections.prefix, counts)
        self.statistics = SeedStatisticsSource(statistics, counts, self.config.snapshot_max_mentions)
        self.bm25 = SpaceBm25(self.search, self.layers.repository.version, counts)
        self.titles = TitleIndex(self.search.passage_titles)

    def projection(self) -> str:
        """The name of the projection for the memory's current version, built if missing."""
        return self.projections.ensure(self.layers.repository.state(self.projections.prefix))

    def embed(self, question: str) -> list[float]:
        return self.embedder.embed_query(question).tolist()

    def finish(self, result: RetrievalResult, timer: StageTimer, known: list[Hit] = (),
               version: int | None = None) -> RetrievalResult:
        """Passage texts (from hits that already carry them, `known`, else read) and every passage's
        provenance (page, heading), in one read. `version`: the memory version the search read; then no
        read when every hit has its text and the space at that version has no provenance to show
        (benchmark corpora: the read cost dense 2.7 ms of 6.5)."""
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
        timer.lap("fetch")
        result.timings_ms = timer.rounded()
        return result
