"""The reads a graph search runs while it embeds the question (RetrievalConfig.concurrent_reads): on a
reader thread of the RetrievalContext or in the caller's thread, with the same results and statements."""

from __future__ import annotations

import threading

import pytest
from test_retrieval import QUESTION, CountingStore, Session, memory, ontology  # noqa: F401 - fixtures

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig


class ThreadRecordingStore(CountingStore):
    """A CountingStore that also records the thread each statement ran on."""

    def __init__(self, store) -> None:
        super().__init__(store)
        self.threads: dict[str, set[str]] = {}

    def read(self, name: str, /, **params):
        self.threads.setdefault(name, set()).add(threading.current_thread().name)
        return super().read(name, **params)


@pytest.mark.parametrize("options", [{}, {"ppr_engine": "gds", "layer_search": "index", "snapshot_max_mentions": 0}],
                         ids=["long-lived", "one-shot"])
def test_concurrent_reads_change_only_the_thread_they_run_on(memory, store, space, minilm, options):
    runs = {}
    for concurrent in (True, False):
        recording = ThreadRecordingStore(store)
        session = Session(recording, space, minilm, RetrievalConfig(concurrent_reads=concurrent, **options))
        try:
            results = [session.search(q, top_k=3, top_m=5) for q in (QUESTION, "Where was Alan Turing born?",
                                                                      "capital of Poland")]
        finally:
            session.context.close()
        runs[concurrent] = results, recording
    (on, on_store), (off, off_store) = runs[True], runs[False]
    for a, b in zip(on, off, strict=True):
        assert [(h.id, h.score) for h in a.passages] == [(h.id, h.score) for h in b.passages]
        assert (a.entities, a.facts, a.schemas, a.fallback) == (b.entities, b.facts, b.schemas, b.fallback)
    assert on_store.reads == off_store.reads  # the same statements, as many times
    # the fusion's BM25 runs ahead too: the space's passages, read once (one-shot too: no Lucene scores)
    ahead = ["retrieval/memory_state_names", "retrieval/passage_corpus"]
    assert on_store.reads["retrieval/passage_corpus"] == 1
    assert not on_store.reads.get("retrieval/passage_fulltext_with_total")
    for name in ahead:
        assert {t.rsplit("_", 1)[0] for t in on_store.threads[name]} == {f"memgraph-reads-{space}"}
        assert off_store.threads[name] == {threading.current_thread().name}
    assert not [t for t in threading.enumerate() if t.name.startswith("memgraph-reads-")]


def test_close_ends_the_reader_threads(store, space, minilm):
    graph = MemoryGraph(space=space, store=store, embedder=minilm)
    graph.search(QUESTION)
    assert [t for t in threading.enumerate() if t.name.startswith(f"memgraph-reads-{space}")]
    graph.close()
    assert not [t for t in threading.enumerate() if t.name.startswith(f"memgraph-reads-{space}")]
