"""The staged ingest (ingest/pipeline.py: parsing batch n+2, embedding batch n+1 and writing batch n side by
side) writes the same space as one stage at a time (MemoryConfig.overlap_stages=False), edge for edge.

The chaos corpus (six demo documents, two MuSiQue passages when the shared data is there), offline extractor
and MiniLM, two chunks per batch: names recur across batches, so batch n+1 is embedded ahead while batch n
creates some of its entities. Compared: every node and relationship (tests/integration/chaos_space.py), the
reports, and every vector (a text's fp32 vector moves by < 1e-7 with the texts embedded beside it)."""

from __future__ import annotations

import threading
import uuid

import numpy as np
import pytest
from chaos_space import BATCH, STRICT_TOLERANCE, corpus, differences, ontology, snapshot
from test_chaos import drop

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import MemoryConfig
from memgraph_neo4j.memory.writer import MemoryWriter

VECTOR_TOLERANCE = 1e-6


def build(store, minilm, space: str, staged: bool, monkeypatch) -> tuple:
    """Ingests the corpus; returns the report and the threads the warm-ups ran on, one per batch."""
    warmed: list[str] = []
    original = MemoryWriter.warm

    def recording(self, outcomes):
        warmed.append(threading.current_thread().name)
        return original(self, outcomes)

    monkeypatch.setattr(MemoryWriter, "warm", recording)
    minilm.clear_cache()  # each build starts as a new process would: nothing kept from the other
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline", ontology=ontology(),
                         config=MemoryConfig(overlap_stages=staged))
    report = memory.ingest(corpus(), batch_size=BATCH, progress=False)
    return report, warmed


def vectors(test_store, space: str) -> dict[tuple[str, str], np.ndarray]:
    return {(r["label"], r["id"]): np.asarray(r["embedding"], dtype=np.float64)
            for r in test_store.read("stage_vectors", space=space)}


@pytest.fixture(scope="module")
def spaces(store, minilm):
    names = {staged: f"t_stage{int(staged)}_{uuid.uuid4().hex[:8]}" for staged in (True, False)}
    yield names
    for name in names.values():
        drop(store, name)


def test_the_staged_ingest_writes_what_the_sequential_one_writes(spaces, store, test_store, minilm, monkeypatch):
    staged_report, staged_warm = build(store, minilm, spaces[True], True, monkeypatch)
    plain_report, plain_warm = build(store, minilm, spaces[False], False, monkeypatch)

    batches = -(-plain_report.passages // BATCH)
    assert plain_warm == [] and len(staged_warm) >= batches - 1 > 2  # a warm-up per batch, off the main thread
    assert set(staged_warm) == {name for name in staged_warm if name.startswith("ingest-embed")}
    fields = ("documents", "passages", "extracted", "facts", "dropped_facts", "entities_new", "promoted",
              "activated", "bridges", "conflicts", "conflicts_resolved", "conflicts_to_review")
    assert {f: getattr(staged_report, f) for f in fields} == {f: getattr(plain_report, f) for f in fields}
    assert plain_report.facts > 20 and plain_report.entities_new > 20 and plain_report.conflicts > 0

    staged, plain = snapshot(test_store, spaces[True]), snapshot(test_store, spaces[False])
    assert not staged.empty()
    diff = differences(staged, plain, STRICT_TOLERANCE)
    assert not diff, "\n".join(diff)

    got, want = vectors(test_store, spaces[True]), vectors(test_store, spaces[False])
    assert got.keys() == want.keys()
    assert {label for label, _ in got} == {"Passage", "Entity", "Fact", "Schema"}
    worst = max(float(np.abs(got[k] - want[k]).max()) for k in got)
    assert worst < VECTOR_TOLERANCE, f"a vector moved by {worst:.2e}"
