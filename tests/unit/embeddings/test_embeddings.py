"""Embeddings layer: MiniLM (ONNX Runtime and numpy) vs sentence-transformers reference vectors,
batching invariance, checksum verification, OpenAI-compatible client against a local stub server.
No Neo4j needed."""

from __future__ import annotations

import hashlib
import json
import math
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from memgraph_neo4j.embeddings import Embedder, get_minilm, make_embedder
from memgraph_neo4j.embeddings.minilm import (
    MiniLMEmbedder,
    ModelIntegrityError,
    bundled_model_dir,
    gelu_,
    verify_sha256,
)
from memgraph_neo4j.embeddings.openai_compat import OpenAIEmbedder

SHARED = Path(__file__).resolve().parents[4] / "shared"
REFERENCE = SHARED / "testvectors" / "all-minilm-l6-v2.json"

TEXTS = [
    "Isaac Newton was born in 1643 in Woolsthorpe, England.",
    "",
    "a",
    "When was Isaac Newton born?",
    "Zürich is the largest city in Switzerland; its population is about 420,000 (2023).",
    "東京は日本の首都です。",
    "word " * 300,  # longer than max_seq_length: exercises truncation
    "The Journal of Mathematical Physics is a peer-reviewed journal published monthly.",
    "Drug treats Disease",
    "short",
    "A medium length sentence about graph databases, retrieval and personalised PageRank.",
]


_numpy_minilm: list[MiniLMEmbedder] = []


@pytest.fixture(scope="module", params=["onnx", "numpy"])
def minilm(request) -> MiniLMEmbedder:
    """Both runtimes: the default one (ONNX Runtime) and the numpy fallback."""
    if request.param == "onnx":
        model = get_minilm()
        assert model.runtime == "onnx"  # onnxruntime is a dependency: the default must use it
        return model
    if not _numpy_minilm:
        _numpy_minilm.append(MiniLMEmbedder(runtime="numpy"))
    return _numpy_minilm[0]


# --- (a) reference vectors ---------------------------------------------------------------


def test_reproduces_sentence_transformers_reference(minilm: MiniLMEmbedder) -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"reference vectors not found at {REFERENCE} (shared test data folder absent)")
    ref = json.loads(REFERENCE.read_text())
    texts = [it["text"] for it in ref["items"]]
    expected = np.asarray([it["embedding"] for it in ref["items"]], dtype=np.float64)
    assert ref["dimensions"] == minilm.dimension == 384

    got = minilm.embed_documents(texts)
    assert got.dtype == np.float32 and got.shape == (len(texts), 384)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cos = (got * expected).sum(1) / np.linalg.norm(expected, axis=1)
    worst = int(np.argmin(cos))
    print(f"\nmin cosine vs reference: {cos.min():.9f} ({texts[worst][:40]!r})")
    assert cos.min() >= 0.999, f"text {worst} ({texts[worst][:40]!r}) has cosine {cos[worst]:.6f}"


def test_truncates_at_max_seq_length_like_sentence_transformers(minilm: MiniLMEmbedder) -> None:
    assert minilm.max_seq_length == 256
    long = "word " * 300
    # the public tokenizer is untruncated (for chunking) ...
    assert len(minilm.tokenizer.encode(long).ids) == 302
    # ... while the model only sees the first 256 tokens, as sentence-transformers does
    cut = minilm.tokenizer.decode(minilm.tokenizer.encode(long).ids[1:255])
    assert np.allclose(minilm.embed_query(long), minilm.embed_query(cut), atol=1e-5)


# --- (b) batching / order invariance -----------------------------------------------------


def test_batch_size_and_order_do_not_change_vectors(minilm: MiniLMEmbedder) -> None:
    base = minilm.embed_documents(TEXTS, batch_size=64)
    for bs in (1, 3, 5):
        assert np.abs(minilm.embed_documents(TEXTS, batch_size=bs) - base).max() < 1e-5, bs
    rev = minilm.embed_documents(TEXTS[::-1], batch_size=4)[::-1]
    assert np.abs(rev - base).max() < 1e-5
    for i, t in enumerate(TEXTS):
        assert np.abs(minilm.embed_query(t) - base[i]).max() < 1e-5


def test_shapes_and_input_validation(minilm: MiniLMEmbedder) -> None:
    assert isinstance(minilm, Embedder)
    empty = minilm.embed_documents([])
    assert empty.shape == (0, 384) and empty.dtype == np.float32
    q = minilm.embed_query("hello")
    assert q.shape == (384,) and q.dtype == np.float32
    with pytest.raises(ValueError, match=r"texts\[1\] is int"):
        minilm.embed_documents(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="single str"):
        minilm.embed_documents("not a list")
    with pytest.raises(ValueError, match="query is NoneType"):
        minilm.embed_query(None)  # type: ignore[arg-type]


def test_runtimes_agree_and_bad_runtime_is_named(monkeypatch) -> None:
    onnx_model = get_minilm()
    numpy_model = MiniLMEmbedder(runtime="numpy")
    texts = ["When was Isaac Newton born?", "word " * 40, "Zürich"]
    assert np.abs(onnx_model.embed_documents(texts) - numpy_model.embed_documents(texts)).max() < 1e-5
    with pytest.raises(ValueError, match="runtime must be one of auto, onnx, numpy, not 'torch'"):
        MiniLMEmbedder(runtime="torch")
    from memgraph_neo4j.embeddings import minilm_onnx

    monkeypatch.setattr(minilm_onnx, "available", lambda: False)  # as where onnxruntime has no wheel
    with pytest.raises(ImportError, match="pip install onnxruntime onnx"):
        MiniLMEmbedder(runtime="onnx")
    assert MiniLMEmbedder(runtime="auto").runtime == "numpy"


def test_gelu_matches_erf_definition() -> None:
    x = np.linspace(-10, 10, 200_001, dtype=np.float32)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(float)])
    err = np.abs(gelu_(x.copy()) - exact)
    assert (err / np.maximum(1.0, np.abs(x))).max() < 1e-6


# --- (d) checksum ------------------------------------------------------------------------


def test_sha256_mismatch_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "model.safetensors"
    bad.write_bytes(b"not the model")
    with pytest.raises(ModelIntegrityError, match=r"checksum mismatch .*model\.safetensors"):
        verify_sha256(bad)
    with pytest.raises(ModelIntegrityError, match=str(bad)):
        MiniLMEmbedder(model_dir=tmp_path)  # refuses before reading anything else
    # a matching checksum passes and is remembered for the process
    good = hashlib.sha256(b"not the model").hexdigest()
    verify_sha256(bad, good)
    bad.unlink()
    verify_sha256(bad, good)  # cached: the (now missing) file is not read again


def test_bundled_weights_verify() -> None:
    verify_sha256(bundled_model_dir() / "model.safetensors")


# --- (c) OpenAI-compatible client vs a local stub ----------------------------------------

STUB_DIM = 8


def _stub_vector(text: str) -> list[float]:
    """Deterministic, deliberately unnormalised vector for a text."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(b - 127.5) / 10.0 for b in digest[:STUB_DIM]]


@pytest.fixture()
def stub_server() -> Iterator[tuple[str, list[dict]]]:
    requests: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(body)
            if self.path != "/v1/embeddings":
                self.send_error(404)
                return
            inputs = body["input"]
            data = [{"object": "embedding", "index": i, "embedding": _stub_vector(t)}
                    for i, t in enumerate(inputs)]
            payload = json.dumps({
                "object": "list", "model": body["model"], "data": data[::-1],  # out of order
                "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
            }).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:  # keep pytest output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", requests
    finally:
        server.shutdown()
        server.server_close()


def test_openai_compatible_embedder_against_stub(stub_server, monkeypatch) -> None:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)  # the stub is local; never go via a proxy
    base_url, requests = stub_server
    emb = make_embedder("openai", model="stub-embed", base_url=base_url, batch_size=4, max_retries=0)
    assert isinstance(emb, OpenAIEmbedder)
    texts = [f"passage {i}" for i in range(9)] + [""]

    vecs = emb.embed_documents(texts)
    assert vecs.shape == (10, STUB_DIM) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    expected = np.array([_stub_vector(t or " ") for t in texts])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(vecs, expected, atol=1e-6)  # right order despite reversed responses
    assert [len(r["input"]) for r in requests] == [4, 4, 2]
    assert all(r["model"] == "stub-embed" and r["encoding_format"] == "float" for r in requests)
    assert requests[-1]["input"][-1] == " "  # empty strings are not sent as-is
    assert emb.dimension == STUB_DIM  # learned from the responses
    assert np.allclose(emb.embed_query("passage 3"), vecs[3], atol=1e-6)
    assert emb.embed_documents([]).shape == (0, STUB_DIM)

    wrong = OpenAIEmbedder("stub-embed", base_url=base_url, dimension=16, max_retries=0)
    with pytest.raises(RuntimeError, match="8-d vectors, expected 16"):
        wrong.embed_documents(["x"])


# --- factory / optional provider ---------------------------------------------------------


def test_make_embedder() -> None:
    minilm = get_minilm()
    assert make_embedder() is minilm and make_embedder("minilm") is minilm
    assert make_embedder("minilm", runtime="numpy").runtime == "numpy"
    with pytest.raises(ValueError, match=r"'word2vec'.*minilm, openai, sentence-transformers"):
        make_embedder("word2vec")


def test_sentence_transformers_missing_gives_install_hint(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # simulate not installed
    with pytest.raises(ImportError, match=r"pip install 'memgraph-neo4j\[st\]'"):
        make_embedder("sentence-transformers")


def test_short_texts_are_embedded_once():
    from memgraph_neo4j.embeddings.base import Embedder

    class Counting(Embedder):
        name = "counting"
        calls: list[list[str]] = []

        @property
        def dimension(self) -> int:
            return 3

        def _embed(self, texts, batch_size, show_progress):
            self.calls.append(list(texts))
            return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)

    emb = Counting()
    first = emb.embed_documents(["Paris", "Obama", "Paris"])
    again = emb.embed_documents(["Obama", "Rome", "x" * 100])
    assert emb.calls == [["Paris", "Obama"], ["Rome", "x" * 100]]  # duplicates and repeats not re-embedded
    assert np.array_equal(first[0], first[2]) and np.array_equal(first[1], again[0])
    emb.embed_documents(["x" * 100])
    assert emb.calls[-1] == ["x" * 100]  # long texts are not cached


def test_texts_the_tokenizer_reads_alike_run_the_model_once(minilm: MiniLMEmbedder, monkeypatch) -> None:
    """The uncased tokenizer makes "Marie Curie" and "marie curie" the same token ids: one model input, one
    vector, run once per process (entity typing embeds the key, resolution the name as written)."""
    minilm.clear_cache()
    runs: list[list[str]] = []
    inner = minilm._embed_encoded
    monkeypatch.setattr(minilm, "_embed_encoded", lambda texts, encs, bs, sp: runs.append(list(texts))
                        or inner(texts, encs, bs, sp))
    long = "Marie Curie " * 20  # past the kept length: run again on every call
    first = minilm.embed_documents(["Marie Curie", "marie  curie", "Warsaw", long])
    assert runs == [["Marie Curie", "Warsaw", long]]  # the same ids once within a call
    second = minilm.embed_documents(["MARIE CURIE", "warsaw", "Paris", long])
    assert runs[1] == ["Paris", long]  # kept sequences are not run again, long ones are
    assert np.array_equal(first[0], first[1]) and np.array_equal(first[0], second[0])
    assert np.array_equal(first[2], second[1])
    minilm.clear_cache()
    fresh = minilm.embed_documents(["marie curie", "Paris"])
    assert runs[2] == ["marie curie", "Paris"]  # cleared: run again, and the same vectors as before
    np.testing.assert_allclose(fresh, np.stack([first[0], second[2]]), atol=1e-6)
