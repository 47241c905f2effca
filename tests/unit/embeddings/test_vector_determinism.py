"""A stored vector depends on its text only: not on how many texts were embedded with it, which ones, or
how much they padded its batch (the review's retract/re-ingest found 31 SIMILAR weights moved by 1.2e-3
when 20 re-ingested passages took another precision than the bulk build). Driven through
`embed_documents`, the call MemoryWriter stores vectors from, on the default embedder and every runtime."""

from __future__ import annotations

import random

import numpy as np
import pytest

from memgraph_neo4j.embeddings import make_embedder, minilm_openvino
from memgraph_neo4j.embeddings.minilm import MiniLMEmbedder

# fp32: a text's vector moves by < 1e-7 with its batch (ONNX Runtime picks other GEMM kernels for one row)
TOLERANCE = 1e-6
SIZES = (1, 7, 31, 32, 33, 100)


def _texts(n: int = 140) -> list[str]:
    """n distinct texts from one word to past max_seq_length (truncated), names and passages alike."""
    words = ("graph memory passage entity fact schema retrieval pagerank neo4j ontology Zürich Newton "
             "born 1643 Woolsthorpe journal physics published monthly the of in and").split()
    rnd = random.Random(7)
    out = [f"{rnd.choice(words).title()} {i}" for i in range(n // 4)]  # entity names: a few tokens
    out += [" ".join(rnd.choice(words) for _ in range(rnd.choice((3, 12, 40, 90, 180, 320)))) + f" #{i}"
            for i in range(n - len(out))]
    return out


def _mixed_batches(model, texts: list[str], seed: int) -> np.ndarray:
    """Every text once, in a shuffled order cut into calls of 1, 7, 31, 32, 33 and 100 texts in turn."""
    order = list(range(len(texts)))
    random.Random(seed).shuffle(order)
    out = np.empty((len(texts), model.dimension), dtype=np.float32)
    start, turn = 0, 0
    while start < len(order):
        idx = order[start : start + SIZES[turn % len(SIZES)]]
        out[idx] = model.embed_documents([texts[i] for i in idx])
        start, turn = start + len(idx), turn + 1
    return out


def _assert_batch_free(model) -> None:
    model.cache_size = 0  # the short-text cache would hand back the first call's vectors and hide a change
    texts = _texts()
    together = model.embed_documents(texts)
    ways = {"one by one": np.stack([model.embed_documents([t])[0] for t in texts]),
            "as queries": np.stack([model.embed_query(t) for t in texts]),
            "mixed batches": _mixed_batches(model, texts, seed=1),
            "other mixed batches": _mixed_batches(model, texts, seed=2)}
    for way, got in ways.items():
        diff = np.abs(got - together).max(axis=1)
        worst = int(np.argmax(diff))
        assert diff[worst] <= TOLERANCE, (f"{way}: text {worst} ({texts[worst][:30]!r}) moved by {diff[worst]:.2e} "
                                          f"against one call of all {len(texts)} (runs on {model.bulk_runtime})")


def test_default_stored_vectors_do_not_depend_on_the_batch() -> None:
    _assert_batch_free(make_embedder("minilm", cache=True))  # a fresh default MiniLM, as ingest builds it


def test_numpy_runtime_vectors_do_not_depend_on_the_batch() -> None:
    _assert_batch_free(MiniLMEmbedder(runtime="numpy"))


@pytest.mark.parametrize("native", [True, False])
def test_default_vectors_do_not_depend_on_the_cpus_bf16(monkeypatch, native: bool) -> None:
    """A space built on a CPU with native bf16 is extended on one without: both must store fp32 vectors."""
    texts = _texts(40)
    reference = MiniLMEmbedder(bf16_bulk=False).embed_documents(texts)
    monkeypatch.setattr(minilm_openvino, "bf16_native", lambda: native)
    model = MiniLMEmbedder()
    assert np.abs(model.embed_documents(texts) - reference).max() <= TOLERANCE
    assert model.bulk_runtime == "onnx"


@pytest.mark.skipif(not minilm_openvino.bf16_native(), reason="no native bf16 on this CPU")
def test_opt_in_bf16_vectors_do_not_depend_on_the_batch() -> None:
    model = MiniLMEmbedder(bf16_bulk=True)
    _assert_batch_free(model)
    assert model.bulk_runtime == "openvino-bf16"
