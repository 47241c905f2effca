"""MiniLM on OpenVINO in bf16 (minilm_openvino.py), opt-in with bf16_bulk=True: the reference vectors still
reproduced, fp32 agreement, determinism, and the default staying fp32 on every CPU. Skipped only where the
CPU has no native bf16 (the CI machine has AVX512_BF16)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from memgraph_neo4j.embeddings import get_minilm, minilm_openvino
from memgraph_neo4j.embeddings.minilm import MiniLMEmbedder

REFERENCE = Path(__file__).resolve().parents[4] / "shared" / "testvectors" / "all-minilm-l6-v2.json"
BULK = minilm_openvino.BULK_MIN_TEXTS

needs_bf16 = pytest.mark.skipif(not minilm_openvino.bf16_native(), reason="no native bf16 on this CPU")


def _corpus(n: int) -> list[str]:
    """n distinct texts of mixed lengths (the embedder embeds each distinct text once)."""
    words = "graph memory passage entity fact schema retrieval pagerank neo4j ontology".split()
    return [f"text {i}: " + " ".join(words[(i + j) % len(words)] for j in range(1 + (i * 7) % 60))
            for i in range(n)]


@pytest.fixture(scope="module")
def fp32() -> MiniLMEmbedder:
    return MiniLMEmbedder(bf16_bulk=False)


@needs_bf16
def test_bulk_calls_reproduce_the_reference_vectors_in_bf16() -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"reference vectors not found at {REFERENCE}")
    ref = json.loads(REFERENCE.read_text())
    texts = [it["text"] for it in ref["items"]]
    expected = np.asarray([it["embedding"] for it in ref["items"]], dtype=np.float64)
    model = MiniLMEmbedder(bf16_bulk=True)
    got = model.embed_documents(texts + _corpus(BULK))[: len(texts)]  # a bulk call: OpenVINO
    assert model.bulk_runtime == "openvino-bf16"
    assert model._bulk.precision == "bf16"  # type: ignore[union-attr]
    cos = (got * expected).sum(1) / np.linalg.norm(expected, axis=1)
    worst = int(np.argmin(cos))
    assert cos.min() >= 0.999, f"text {worst} ({texts[worst][:40]!r}) has cosine {cos[worst]:.6f}"
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@needs_bf16
def test_bulk_vectors_agree_with_fp32_and_repeat_exactly(fp32: MiniLMEmbedder) -> None:
    texts = _corpus(3 * BULK + 5)
    model = MiniLMEmbedder(bf16_bulk=True)
    bf16 = model.embed_documents(texts)
    exact = fp32.embed_documents(texts)
    assert fp32.bulk_runtime == "onnx" and model.bulk_runtime == "openvino-bf16"
    cos = (bf16 * exact).sum(1)
    assert cos.min() >= 0.9999, cos.min()
    assert np.abs(bf16 - exact).max() > 0  # it really ran in another precision
    assert np.array_equal(model.embed_documents(texts), bf16)  # the same call cuts the same batches


def test_the_default_is_fp32_on_every_cpu_and_bf16_is_opt_in(monkeypatch) -> None:
    model = get_minilm()
    model.embed_documents(_corpus(BULK + 3))
    assert model.bulk_runtime == "onnx"  # even where the CPU has native bf16
    with pytest.raises(ValueError, match="bf16_bulk must be True or False, not None"):
        MiniLMEmbedder(bf16_bulk=None)  # type: ignore[arg-type]  (None once meant "where native")
    monkeypatch.setattr(minilm_openvino, "bf16_native", lambda: False)
    with pytest.raises(ImportError, match="bf16_bulk=True needs OpenVINO"):
        MiniLMEmbedder(bf16_bulk=True)


def test_openvino_off_by_environment(monkeypatch) -> None:
    monkeypatch.setenv("MEMGRAPH_OPENVINO", "0")
    minilm_openvino.bf16_native.cache_clear()
    try:
        assert minilm_openvino.bf16_native() is False
    finally:
        monkeypatch.delenv("MEMGRAPH_OPENVINO")
        minilm_openvino.bf16_native.cache_clear()


@needs_bf16
def test_a_failing_build_is_an_error_not_a_mix_of_precisions(monkeypatch) -> None:
    def broken(*_a, **_k):
        raise RuntimeError("no CPU plugin")

    monkeypatch.setattr(minilm_openvino, "OpenVinoMiniLM", broken)
    model = MiniLMEmbedder(bf16_bulk=True)
    with pytest.raises(RuntimeError, match="no CPU plugin"):
        model.embed_documents(_corpus(3))


def test_the_default_never_imports_openvino() -> None:
    """Queries, small and bulk calls all stay on ONNX Runtime fp32: OpenVINO is not even imported."""
    import subprocess
    import sys

    code = ("import sys\nfrom memgraph_neo4j.embeddings import get_minilm\nm = get_minilm()\n"
            "m.embed_query('When was Isaac Newton born?')\nm.embed_documents([f'text {i}' for i in range(40)])\n"
            "assert 'openvino' not in sys.modules, 'openvino imported'\nprint(m.bulk_runtime)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "onnx"
