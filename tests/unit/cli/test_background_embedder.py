"""BackgroundEmbedder: the one-shot command's embedder, built on its own thread while the command starts."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from memgraph_neo4j.cli.embedder import BackgroundEmbedder


class Fixed:
    name, dimension = "fixed", 3

    def embed_query(self, text: str) -> np.ndarray:
        return np.array([len(text), 0.0, 1.0], dtype=np.float32)

    def embed_documents(self, texts, batch_size=None, show_progress=False) -> np.ndarray:
        return np.stack([self.embed_query(t) for t in texts])


def test_built_on_its_own_thread_and_delegated_to():
    built_on, release = [], threading.Event()

    def build():
        built_on.append(threading.current_thread().name)
        release.wait(5)
        return Fixed()

    embedder = BackgroundEmbedder(build, 3)
    assert embedder.dimension == 3  # known before the build ends
    release.set()
    assert embedder.embed_query("four").tolist() == [4.0, 0.0, 1.0]
    assert embedder.embed_documents(["a", "bb"]).shape == (2, 3)
    assert embedder.name == "fixed"  # other attributes: the built embedder's
    assert built_on == ["memgraph-embedder-build"]
    embedder.close()
    assert not [t for t in threading.enumerate() if t.name == "memgraph-embedder-build"]


def test_an_error_of_the_build_is_raised_by_the_first_use():
    error = ImportError("no onnxruntime")

    def build():
        raise error

    embedder = BackgroundEmbedder(build, 3)
    with pytest.raises(ImportError) as raised:
        embedder.embed_query("x")
    assert raised.value is error
    embedder.close()


def test_a_dimension_other_than_announced_is_named():
    embedder = BackgroundEmbedder(Fixed, 384)
    with pytest.raises(ValueError, match="3-dimensional vectors, not the 384"):
        embedder.embed_query("x")
    embedder.close()
