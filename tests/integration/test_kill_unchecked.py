"""A killed ingest's rerun finishes what the kill left undone, also when it has nothing new to extract.

The kill falls after the batch that activated facts (so they carry `Unchecked`) and before the
conflict check recorded or marked them: the rerun's passages are all extracted already, so no batch
runs, yet the space must end as a clean build of the same documents does (conflicts with their
statuses, fact states, no `Unchecked` left). Offline extractor + MiniLM, tau = 2, demo documents
microsoft.md then microsoft-moves.md (they plant a temporal conflict); the child is chaos_child.py.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import uuid
from collections import Counter

import pytest
from chaos_space import BATCH, STRICT_TOLERANCE, corpus, differences, memory, snapshot
from test_chaos import CHILD, _env, drop

MICROSOFT, MOVES = 4, 5  # chaos_space.DEMO_DOCS
THRESHOLD = 2
# write transactions of the child (read after write stamps the version inside each write): 1 lease,
# 2 the one batch with its documents, passages and promotion, 3 the check's record, 4 mark_checked,
# 5 lease release: kills after the batch, inside the check and after it
KILLS = [2, 3, 4]


def ingest(store, space: str, embedder, index: int):
    return memory(store, space, embedder, threshold=THRESHOLD).ingest([corpus()[index]], batch_size=BATCH,
                                                                      progress=False)


def labels_count(snap, label: str) -> int:
    return sum(n for (labels, _), n in snap.nodes.items() if label in labels)


@pytest.fixture(scope="module")
def clean(store, test_store, minilm):
    space = f"t_unchkref_{uuid.uuid4().hex[:8]}"
    try:
        ingest(store, space, minilm, MICROSOFT)
        ingest(store, space, minilm, MOVES)
        yield snapshot(test_store, space)
    finally:
        drop(store, space)


@pytest.mark.parametrize("writes", KILLS)
def test_a_rerun_after_a_kill_before_the_conflict_check_equals_a_clean_build(clean, store, test_store, minilm,
                                                                            neo4j_connection, writes):
    assert labels_count(clean, "Unchecked") == 0 and labels_count(clean, "Conflict") > 0
    space = f"t_unchk_{uuid.uuid4().hex[:8]}"
    c = neo4j_connection
    try:
        ingest(store, space, minilm, MICROSOFT)
        proc = subprocess.Popen([sys.executable, str(CHILD), c.uri, c.password, space, str(MOVES), str(THRESHOLD),
                                 str(writes)], env=_env(c), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == -signal.SIGKILL, err[-3000:]
        killed = snapshot(test_store, space)
        print(writes, "after the kill: Unchecked", labels_count(killed, "Unchecked"),
              "Conflict", labels_count(killed, "Conflict"))
        report = ingest(store, space, minilm, MOVES)
        got = snapshot(test_store, space)
        assert labels_count(got, "Unchecked") == 0
        diff = differences(got, clean, STRICT_TOLERANCE)
        assert not diff, f"killed after write {writes}, rerun {report}:\n" + "\n".join(diff)
        states = Counter((labels, dict(p).get("state"), dict(p).get("status")) for (labels, p) in got.nodes.elements())
        assert states == Counter((labels, dict(p).get("state"), dict(p).get("status"))
                                 for (labels, p) in clean.nodes.elements())
    finally:
        drop(store, space)


def test_a_rerun_promotes_the_facts_a_kill_left_written_but_not_promoted(clean, store, test_store, minilm, space):
    """A conversation batch is written, then promoted, in two transactions: a kill in between leaves its
    facts Unpromoted (pending) with their passages extracted. Made here in process: the batches of
    microsoft-moves.md written without promotion, then the same ingest again (nothing new)."""
    from memgraph_neo4j.contracts import ExtractionInput, NoGuide
    from memgraph_neo4j.ingest.pipeline import document_rows, passage_rows

    ingest(store, space, minilm, MICROSOFT)
    m = memory(store, space, minilm, threshold=THRESHOLD)
    docs = [corpus()[MOVES]]
    rows = passage_rows(docs, m.ontology.chunking.tokens, m.ontology.chunking.overlap)
    m.writer.write_passages(rows, document_rows(docs))
    for start in range(0, len(rows), BATCH):
        inputs = [ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title)
                  for r in rows[start:start + BATCH]]
        m.writer.write_batch(m.extractor.extract(inputs, NoGuide()), promote=False)
    assert labels_count(snapshot(test_store, space), "Unpromoted") > 0
    report = ingest(store, space, minilm, MOVES)
    assert report.passages_new == 0 and report.activated > 0
    got = snapshot(test_store, space)
    assert labels_count(got, "Unpromoted") == labels_count(got, "Unchecked") == 0
    diff = differences(got, clean, STRICT_TOLERANCE)
    assert not diff, "\n".join(diff)
