"""No text embedded twice: facts and schemas a space already holds keep the embedding they were created
with, read back instead of embedded again, in a later batch or a later run; and the memory built so is the
memory built by embedding everything again (the plain path), vector for vector."""

from __future__ import annotations

import uuid

import pytest
from test_retrieval import drop_graphs

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.embeddings.base import Embedder
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.neighbours import SpaceVectors
from memgraph_neo4j.repository.facts import FactRepository

FIRST = [Document(title="Curie", text="Marie Curie was born in Warsaw. Marie Curie worked in Paris.")]
LATER = [Document(title="Curie again", text="Marie Curie was born in Warsaw. Pierre Curie was born in Paris."),
         Document(title="Skłodowska", text="Marie Curie worked in Paris. Marie Curie was born in Warsaw.")]


class Recording:
    """The test's embedder, recording every text the memory asks it to embed (before its own cache)."""

    def __init__(self, embedder) -> None:
        self.inner, self.texts = embedder, []

    def embed_documents(self, texts, batch_size=None, show_progress=False):
        self.texts += list(texts)
        return self.inner.embed_documents(texts, batch_size=batch_size, show_progress=show_progress)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def two_spaces(store):
    names = [f"t_emb{k}_{uuid.uuid4().hex[:8]}" for k in "ab"]
    yield names
    for name in names:
        store.run_implicit("admin/delete_space", space=name)
        drop_graphs(store, name)


def run(store, space, embedder, documents) -> MemoryGraph:
    with MemoryGraph(space=space, store=store, embedder=embedder, extractor="offline") as memory:
        memory.ingest(documents, batch_size=1, progress=False)  # one passage per batch: later batches restate
    return memory


def test_a_later_run_reads_back_what_the_space_holds_and_embeds_only_what_is_new(store, test_store, minilm,
                                                                                 two_spaces):
    space, _ = two_spaces
    run(store, space, Recording(minilm), FIRST)
    held = {r["text"] for r in test_store.read("text_vectors", space=space) if r["label"] == "Fact"}
    assert len(held) >= 2  # born in Warsaw, worked in Paris

    later = Recording(minilm)
    memory = run(store, space, later, LATER)
    asked = set(later.texts)
    assert not held & asked  # the stored facts' texts were not embedded again ...
    counts = memory.writer.embedding_counts
    assert counts["reused"] >= len(held) + 1  # ... nor their schemas; both read back
    stored = {r["text"] for r in test_store.read("text_vectors", space=space) if r["label"] == "Fact"}
    assert stored - held and stored - held <= asked  # what was new was embedded


def test_the_memory_built_with_read_back_vectors_is_the_memory_built_by_embedding_everything(
        store, test_store, minilm, two_spaces, monkeypatch):
    reused, plain = two_spaces
    for documents in (FIRST, LATER):
        run(store, reused, minilm, documents)
    with monkeypatch.context() as patch:  # the plain path: every fact and schema text embedded again
        patch.setattr(FactRepository, "stored_vectors", lambda self, facts, schemas: ({}, {}))
        patch.setattr(SpaceVectors, "held", lambda self, ids, version: {})
        patch.setattr(Embedder, "holds", lambda self, text: False)
        for documents in (FIRST, LATER):
            memory = run(store, plain, minilm, documents)
        assert memory.writer.embedding_counts["reused"] == 0
    a, b = (test_store.read("text_vectors", space=s) for s in (reused, plain))
    assert [(r["label"], r["id"], r["text"]) for r in a] == [(r["label"], r["id"], r["text"]) for r in b]
    assert {r["label"] for r in a} == {"Fact", "Schema", "Passage"} and all(r["embedding"] for r in a)
    for x, y in zip(a, b):
        assert x["embedding"] == pytest.approx(y["embedding"], abs=1e-6), x["text"]


def test_a_restatement_in_a_long_lived_memory_reads_nothing_back(store, minilm, space, monkeypatch):
    """In one process a restated fact's vector comes from the fact copy and its schema's from the embedder's
    kept texts: the write reads nothing back (memory/stored_text_vectors, one read per batch, skipped)."""
    asked: list[tuple[list[str], list[str]]] = []
    read_back = FactRepository.stored_vectors

    def recording(self, facts, schemas):
        asked.append((list(facts), list(schemas)))
        return read_back(self, facts, schemas)

    monkeypatch.setattr(FactRepository, "stored_vectors", recording)
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline") as memory:
        memory.ingest(FIRST, progress=False)
        memory.facts()  # the memory is in use between the writes (its copies loaded)
        memory.writer.fact_vectors.current()
        before = dict(memory.writer.embedding_counts)
        asked.clear()
        memory.ingest([Document(title="Again", text="Marie Curie was born in Warsaw.")], progress=False)
        counts = memory.writer.embedding_counts
    assert all(not facts and not schemas for facts, schemas in asked), asked
    # the restated fact and its schema came without the model
    assert counts["reused"] - before.get("reused", 0) == 2
