"""The graph copy's matrix is merged lazily by whichever thread asks first (a search's reader thread and the
search itself, retrieval/context.prepare_ahead): two threads asking at once get the graph of every write."""

from __future__ import annotations

import threading
import time

import numpy as np

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.changes import ChangedEntity, ChangedFact, ChangedPassage, Changes
from memgraph_neo4j.repository.projections import projection_spec
from memgraph_neo4j.retrieval.ppr import graph_copy
from memgraph_neo4j.retrieval.ppr.graph_copy import GraphCopy


def _changes(version: int, facts: list[tuple[str, str, str]], passages: int = 3) -> Changes:
    names = sorted({n for _, h, t in facts for n in (h, t)})
    entities = [ChangedEntity(n, n.upper(), ("Person",), ()) for n in names]
    rows = [ChangedPassage(f"p{version}_{i}", f"T{i}", tuple(names[i::passages])) for i in range(passages)]
    return Changes(version - 1, version, True, [ChangedFact(i, "active", "knows", h, t) for i, h, t in facts],
                   [], rows, entities, ["Person"])


def test_two_threads_asking_for_the_matrix_at_once_both_get_every_write(monkeypatch):
    spec = projection_spec(RetrievalConfig())
    copy = GraphCopy(spec)
    copy.apply(_changes(1, [(f"f{i}", f"e{i}", f"e{i + 1}") for i in range(30)]))
    copy.compacted()
    copy.apply(_changes(2, [("g1", "e0", "e29"), ("g2", "e3", "x1")], passages=1))  # a write: a delta to merge
    expected = GraphCopy(spec)
    for version, facts, passages in ((1, [(f"f{i}", f"e{i}", f"e{i + 1}") for i in range(30)], 3),
                                     (2, [("g1", "e0", "e29"), ("g2", "e3", "x1")], 1)):
        expected.apply(_changes(version, facts, passages))
    want = expected.compacted()

    merging = threading.Event()
    slow = graph_copy.symmetric_rows

    def symmetric_rows(*args):  # the first thread is held inside the merge while the second asks
        merging.set()
        time.sleep(0.3)
        return slow(*args)

    monkeypatch.setattr(graph_copy, "symmetric_rows", symmetric_rows)
    got: dict[str, object] = {}
    first = threading.Thread(target=lambda: got.__setitem__("first", copy.transition))
    first.start()
    assert merging.wait(5)
    got["second"] = copy.transition  # without the copy's lock: merged without the write (its changes taken)
    first.join()
    x = np.random.default_rng(1).random(len(copy.nodes))
    for name in ("first", "second"):
        np.testing.assert_allclose(got[name] @ x, want @ x, atol=1e-12, err_msg=name)
    assert got["first"] is got["second"]  # merged once
