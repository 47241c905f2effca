"""CONFLICTS_WITH pairs, against a real Neo4j: one edge per (conflict, a, b) however often or from how
many spaces the conflict is written, and a memory holding duplicates is repaired by the next write."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

from test_retraction_conflicts import docs, memory_of

from memgraph_neo4j.repository.conflicts import ConflictRepository, ConflictRow
from memgraph_neo4j.repository.documents import delete_space


def edge_counts(test_store, space: str) -> list[int]:
    return [r["edges"] for r in test_store.read("conflict_edge_counts", space=space)]


def rows_of(memory) -> list[ConflictRow]:
    """The conflicts of a memory as adjudication writes them (from `conflicts show`)."""
    details = [memory.conflicts.show(c.id) for c in memory.conflicts.list(limit=100)]
    return [ConflictRow(d.id, d.type, d.status, d.confidence, d.reason, d.model, [f["id"] for f in d.facts],
                        [{k: p[k] for k in ("a", "b", "type", "confidence", "reason", "rule")} for p in d.pairs])
            for d in details]


def test_the_same_conflict_in_two_spaces_shows_only_its_own_pairs(store, test_store, space, minilm):
    """Fact and conflict ids hash content, so two spaces built from the same documents share them: a
    conflict's pairs came from both spaces (a pair counted twice, thrice under concurrent test runs)."""
    other = f"t_{uuid.uuid4().hex[:10]}"
    try:
        for name in (space, other):
            memory_of(store, name, minilm, threshold=1).ingest(docs("TURING_A", "TURING_B"), progress=False)
        memory = memory_of(store, space, minilm, threshold=1)
        [conflict] = memory.conflicts.list()
        assert memory_of(store, other, minilm, threshold=1).conflicts.list()[0].id == conflict.id
        assert len(memory.conflicts.show(conflict.id).pairs) == 1
        [snap] = test_store.read("conflict_snapshot", space=space)
        assert len(snap["pairs"]) == 1
    finally:
        delete_space(store, other)


def test_writing_a_conflict_again_or_concurrently_keeps_one_edge_per_pair(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=1)
    memory.ingest(docs("TURING_A", "TURING_B", "MS_A", "MS_B"), progress=False)
    rows = rows_of(memory)
    assert len(rows) == 2 and edge_counts(test_store, space) == [1, 1]
    repository = ConflictRepository(store, space)
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(lambda _: repository.write_conflicts(rows + rows), range(8)))
    assert edge_counts(test_store, space) == [1, 1]


def test_the_next_write_of_a_conflict_collapses_duplicate_edges(store, test_store, space, minilm):
    memory = memory_of(store, space, minilm, threshold=1)
    memory.ingest(docs("TURING_A", "TURING_B", "MS_A", "MS_B"), progress=False)
    rows = rows_of(memory)
    assert test_store.write("duplicate_conflict_edges", space=space)[0]["copies"] == 2
    assert edge_counts(test_store, space) == [2, 2]
    ConflictRepository(store, space).write_conflicts(rows)
    assert edge_counts(test_store, space) == [1, 1]
    [pair] = memory.conflicts.show(rows[0].id).pairs
    assert pair == rows[0].pairs[0]
