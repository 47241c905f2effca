"""Copies that follow the writes (retrieval/changes.py) equal copies read whole, and the GDS projection.

A long-lived retrieval context searches, the memory is written (stamped ingests, verdicts and a retraction,
whose deletions the copies learn from its tombstones), and after each write its caught-up copies are
compared with those of a fresh context at the same version: the PPR graph edge for edge (and with the
GDS projection), the seed statistics, BM25, the titles, and the search results of every graph method
(same ranking, scores within 1e-6).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from test_memory import ScriptedExtractor
from test_retrieval import SCRIPT, TEXTS, Session, drop_graphs, same_ranking

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.ingest.episodes import Conversation, Message
from memgraph_neo4j.ingest.episodes import Session as ChatSession
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.retrieval.ppr.graph_copy import KINDS

MORE = {
    "LOVELACE": [("Ada Lovelace", "born in", "London", "Person", "Place"),
                 ("Ada Lovelace", "collaborated with", "Charles Babbage", "Person", "Person")],
    "BABBAGE": [("Charles Babbage", "born in", "London", "Person", "Place"),
                ("Charles Babbage", "designed", "Analytical Engine", "Person", "Thing")],
    "TEIGNMOUTH": [("Charles Babbage", "born in", "Teignmouth", "Person", "Place")],  # born_in is functional
}
MORE_TEXTS = {
    "LOVELACE": "LOVELACE Ada Lovelace was born in London and worked with Charles Babbage.",
    "BABBAGE": "BABBAGE Charles Babbage was born in London and designed the Analytical Engine.",
}
CONFLICTING = "TEIGNMOUTH Some say Charles Babbage was born in Teignmouth."
QUESTIONS = ("Where was Alan Turing born?", "Who worked with Charles Babbage?", "capital of Poland",
             "Where was Grace Hopper born?")


@pytest.fixture
def memory(store, space, minilm):
    base = load_ontology()
    ontology = base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1,
                                                                                      "percentile": None})})
    m = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm,
                    extractor=ScriptedExtractor(SCRIPT | MORE), retrieval=RetrievalConfig())
    m.ingest([Document(title=k.title(), text=v) for k, v in TEXTS.items() if k != "HOPPER"], progress=False)
    yield m
    m.close()  # its reader threads end
    drop_graphs(store, space)


def statistics(context, version: int) -> tuple:
    snapshot = context.statistics.copy.at(version)
    mentions = {p: sorted(e) for p, e in snapshot.entities_of.items() if e}
    return mentions, dict(snapshot.df), {t: n for t, n in snapshot.type_degree.items() if n}


def assert_same_copies(long_lived: Session, fresh: Session, test_store) -> None:
    """Every copy of the long-lived context equals the fresh one's at the memory's current version."""
    for question in QUESTIONS:
        for method in ("memgraphrag", "hipporag2", "hybrid", "dense", "bm25"):
            same_ranking(long_lived.search(question, method=method, top_k=3, top_m=5),
                         fresh.search(question, method=method, top_k=3, top_m=5))
    a, b = long_lived.context, fresh.context
    version = a.layers.repository.version()
    copy = a.engine.graph_copy(version)
    assert copy.edges() == pytest.approx(b.engine.graph_copy(version).edges(), abs=1e-12)
    # ... and equals the GDS projection of that version, edge for edge (summed per ordered pair)
    projected: dict = {}
    kinds = {i: KINDS[k] for i, k in zip(copy.nodes.ids, copy.nodes.kinds, strict=True)}
    for e in test_store.read("projection_edges", graph=a.projection()):
        key = ((kinds[e["source"]], e["source"]), (kinds[e["target"]], e["target"]))
        projected[key] = projected.get(key, 0.0) + e["weight"]
    assert copy.edges() == pytest.approx(projected, abs=1e-9)
    assert statistics(a, version) == statistics(b, version)
    assert a.bm25.index(version).canonical() == b.bm25.index(version).canonical()
    assert a.titles.copy.at(version).by_key == b.titles.copy.at(version).by_key
    assert a.layers.snapshot(version).canonical() == b.layers.snapshot(version).canonical()
    # followed (created stamps) against read whole; `mentions` counts the whole database (an upper bound from
    # the count store), which another pytest session sharing the test instance moves between the two reads
    assert replace(a.counts(version), mentions=0) == replace(b.counts(version), mentions=0)


def test_copies_follow_writes_exactly(memory, store, space, minilm, test_store):
    config = RetrievalConfig()
    long_lived = Session(store, space, minilm, config)
    for question in QUESTIONS:  # every copy read whole once
        long_lived.search(question, method="memgraphrag")
        long_lived.search(question, method="bm25")
    builds = (long_lived.context.engine.exports, long_lived.context.bm25.builds, long_lived.context.layers.exports,
              long_lived.context.counts.reads)

    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)  # one stamped write
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert (long_lived.context.engine.exports, long_lived.context.bm25.builds,
            long_lived.context.layers.exports, long_lived.context.counts.reads) == builds  # caught up, not read
    assert long_lived.context.statistics.copy.catch_ups >= 1

    memory.ingest([Document(title=k.title(), text=v) for k, v in MORE_TEXTS.items()], progress=False)
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert (long_lived.context.engine.exports, long_lived.context.bm25.builds,
            long_lived.context.layers.exports, long_lived.context.counts.reads) == builds

    # a conflict and its verdicts: stamped on the facts and schemas they change, caught up, not read whole
    memory.ingest([Document(title="Teignmouth", text=CONFLICTING)], progress=False)
    [conflict] = memory.conflicts.list(limit=100)
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    facts = [f["id"] for f in memory.conflicts.show(conflict.id).facts]
    for action, keep in (("accept", facts[0]), ("revert", None), ("accept", facts[1]), ("reject", None)):
        version = long_lived.context.layers.repository.version()
        review = getattr(memory.conflicts, action)
        review(conflict.id, keep=keep) if keep else review(conflict.id)
        assert long_lived.context.layers.repository.version() > version, action
        assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert (long_lived.context.engine.exports, long_lived.context.bm25.builds,
            long_lived.context.layers.exports, long_lived.context.counts.reads) == builds

    # a conversation (episodes, speakers, their facts, validity): stamped as well, caught up, not read whole
    chat = Conversation("lab", title="Ada and Charles", sessions=[ChatSession("1", [
        Message("Ada Lovelace", "LOVELACE I was born in London, as you know."),
        Message("Charles Babbage", "And I met Grace Hopper once.")], time=datetime(2024, 1, 10, 9, tzinfo=UTC))])
    version = long_lived.context.layers.repository.version()
    memory.ingest_conversations([chat])
    assert long_lived.context.layers.repository.version() > version
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert (long_lived.context.engine.exports, long_lived.context.bm25.builds,
            long_lived.context.layers.exports, long_lived.context.counts.reads) == builds

    # a retraction is stamped too, its deletions carried by tombstones: followed, not read whole
    context = long_lived.context
    followed = (context.layers.copy, context.bm25.copy, context.statistics.copy, context.titles.copy)
    whole = [f.builds for f in followed]
    catch_ups, reads = [f.catch_ups for f in followed], context.changes.reads
    # Teignmouth: its entity goes, its conflict closes (the verdict undone)
    report = memory.retract([d.id for d in memory.documents() if d.title in ("Lovelace", "Teignmouth")])
    assert report.passages and report.entities_deleted and report.conflicts_obsolete
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert (context.engine.exports, context.bm25.builds, context.layers.exports, context.counts.reads) == builds
    assert [f.builds for f in followed] == whole  # no copy read whole
    assert all(f.catch_ups > n for f, n in zip(followed, catch_ups, strict=True))  # each applied the delta
    assert context.changes.reads > reads
    assert context.changes._last.removed_passages  # the removals came from the tombstones

    # ingested again: the passages and entities created anew win over their tombstones
    memory.ingest([Document(title="Lovelace", text=MORE_TEXTS["LOVELACE"]),
                   Document(title="Teignmouth", text=CONFLICTING)], progress=False)
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert (context.engine.exports, context.bm25.builds, context.layers.exports, context.counts.reads) == builds
    assert [f.builds for f in followed] == whole


def test_pruned_tombstones_read_the_copies_whole(memory, store, space, minilm, test_store, monkeypatch):
    """A copy older than the tombstones pruned cannot learn what was deleted: it is read whole, and equal."""
    from memgraph_neo4j.repository import documents

    config = RetrievalConfig()
    long_lived = Session(store, space, minilm, config)
    for question in QUESTIONS:
        long_lived.search(question, method="memgraphrag")
        long_lived.search(question, method="bm25")
    context = long_lived.context
    builds = context.layers.copy.builds
    monkeypatch.setattr(documents, "TOMBSTONE_VERSIONS", 0)  # the retraction prunes every tombstone
    memory.retract([next(d for d in memory.documents() if d.title == "Turing").id])
    assert test_store.read("tombstones", space=space) == [{"tombstones": 0}]
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert context.layers.copy.builds == builds + 1


def test_tombstones_are_not_memory(memory, store, space, minilm, test_store, tmp_path):
    """Tombstones stay out of an export and the stats, and go with their space."""
    from memgraph_neo4j.repository.documents import delete_space

    memory.retract([next(d for d in memory.documents() if d.title == "Turing").id])
    assert test_store.read("tombstones", space=space)[0]["tombstones"] > 0
    report = memory.export(tmp_path / "x.jsonl")
    assert "Tombstone" not in report.labels
    assert "Tombstone" not in memory.stats()["nodes"]
    delete_space(store, space)
    assert test_store.read("tombstones", space=space) == [{"tombstones": 0}]


def test_the_push_form_follows_writes_exactly(memory, store, space, minilm, test_store):
    """With PageRank pushed (as on spaces of 1M entries and more), each write corrects the hubs' vectors
    (ppr/push.update_push_graph) instead of building them: the results equal a fresh context's that builds
    them, after ingests and a retraction."""
    config = RetrievalConfig(push_min_relationships=0)
    long_lived = Session(store, space, minilm, config)
    for question in QUESTIONS:
        long_lived.search(question, method="memgraphrag")
    engine = long_lived.context.engine
    assert (engine.push_builds, engine.push_updates) == (1, 0)
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    memory.ingest([Document(title=k.title(), text=v) for k, v in MORE_TEXTS.items()], progress=False)
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    memory.retract([d.id for d in memory.documents() if d.title in ("Lovelace", "Hopper")])
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert engine.push_builds == 1 and engine.push_updates == 3


def test_a_search_corrects_the_push_form_ahead_on_a_reader_thread(memory, store, space, minilm, test_store,
                                                                   monkeypatch):
    """After a write the search starts the engine's catch-up on a reader thread as soon as it has read the
    memory version (RetrievalContext.prepare_ahead), and its own prepare finds the work done: one
    correction per write, and results equal to a fresh context's."""
    config = RetrievalConfig(push_min_relationships=0)
    long_lived = Session(store, space, minilm, config)
    long_lived.search(QUESTIONS[0], method="memgraphrag")
    engine = long_lived.context.engine
    calls: list[tuple[str, int]] = []
    prepare = engine.prepare

    def spied(graph: str, version: int | None = None) -> None:
        calls.append((threading.current_thread().name, version))
        prepare(graph, version)

    monkeypatch.setattr(engine, "prepare", spied)
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    version = long_lived.context.layers.repository.state(long_lived.context.projections.prefix).version
    long_lived.search(QUESTIONS[3], method="memgraphrag")
    assert [v for name, v in calls if name.startswith("memgraph-reads")] == [version]
    assert any(name == threading.main_thread().name for name, _ in calls)  # the search's own, after it
    assert engine.push_updates == 1 and engine.push_builds == 1
    monkeypatch.undo()
    assert_same_copies(long_lived, Session(store, space, minilm, config), test_store)
    assert engine.push_updates == 1  # the comparison's searches corrected nothing more
