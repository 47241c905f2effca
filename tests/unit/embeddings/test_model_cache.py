"""The MiniLM start-up cache (embeddings/model_cache.py): a model read from it embeds exactly like one
built from the model files, on both runtimes; a damaged cache is rebuilt; a changed weights file is hashed
again. Each test gets its own MEMGRAPH_HOME."""

from __future__ import annotations

import os

import numpy as np
import pytest

from memgraph_neo4j.embeddings import minilm, model_cache, model_files
from memgraph_neo4j.embeddings.minilm import MODEL_SHA256, MiniLMEmbedder

TEXTS = ["When was Isaac Newton born?", "Zürich is the largest city in Switzerland.", "word " * 300, "a"]


@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGRAPH_HOME", str(tmp_path))
    monkeypatch.delenv("MEMGRAPH_MODEL_CACHE", raising=False)
    return tmp_path / "cache" / "minilm"


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    return MiniLMEmbedder(cache=False).embed_documents(TEXTS)


def _files(folder) -> set[str]:
    return {p.suffix for p in folder.iterdir()} if folder.is_dir() else set()


@pytest.mark.parametrize("runtime", ["onnx", "numpy"])
def test_cached_model_embeds_like_the_model_files(home, reference, runtime) -> None:
    first = MiniLMEmbedder(runtime=runtime)  # builds and stores the cache
    assert {".bin", ".json"} <= _files(home) and (runtime == "numpy" or ".onnx" in _files(home))
    second = MiniLMEmbedder(runtime=runtime)  # reads it
    key = model_cache.source_key(MODEL_SHA256)
    assert model_cache.load_weights(key) is not None
    for model in (first, second):
        assert np.abs(model.embed_documents(TEXTS) - reference).max() < 1e-5
    assert len(second.tokenizer.encode("word " * 300).ids) == 302  # the public tokenizer is untruncated


def test_damaged_cache_is_rebuilt(home, reference) -> None:
    MiniLMEmbedder()
    key = model_cache.source_key(MODEL_SHA256)
    (home / f"{key}.onnx").write_bytes(b"not a graph")
    with open(home / f"{key}.bin", "r+b") as f:
        f.truncate(1000)
    assert model_cache.load_weights(key) is None
    model = MiniLMEmbedder()
    assert np.abs(model.embed_documents(TEXTS) - reference).max() < 1e-5
    assert model_cache.load_weights(key) is not None and (home / f"{key}.onnx").stat().st_size > 1000


def test_cache_off_writes_nothing(home, monkeypatch) -> None:
    monkeypatch.setenv("MEMGRAPH_MODEL_CACHE", "0")
    MiniLMEmbedder()
    assert not home.exists()


def test_checksum_is_remembered_until_the_file_changes(home, tmp_path, monkeypatch) -> None:
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"x" * 1000)
    import hashlib

    digest = hashlib.sha256(b"x" * 1000).hexdigest()
    monkeypatch.setattr(model_files, "_verified", set())  # a new process
    minilm.verify_sha256(weights, digest)
    assert model_cache.known_digest(weights) == digest
    monkeypatch.setattr(model_files, "_verified", set())
    minilm.verify_sha256(weights, digest)  # from the record, no hashing needed
    weights.write_bytes(b"y" * 1000)  # same size: the mtime tells
    stat = weights.stat()
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert model_cache.known_digest(weights) is None
    monkeypatch.setattr(model_files, "_verified", set())
    with pytest.raises(minilm.ModelIntegrityError, match="checksum mismatch"):
        minilm.verify_sha256(weights, digest)


def test_only_the_newest_caches_are_kept(home) -> None:
    for n, key in enumerate(("old", "older", "newer")):
        model_cache.save_weights(key, {"w": np.zeros(3, dtype=np.float32)})
        os.utime(home / f"{key}.bin", (1000 + n, 1000 + n))
    model_cache.save_weights("newest", {"w": np.ones(3, dtype=np.float32)})
    assert sorted(p.stem for p in home.glob("*.bin")) == ["newer", "newest"]
    assert not (home / "old.json").exists()
    assert model_cache.load_weights("newest")["w"].tolist() == [1.0, 1.0, 1.0]
