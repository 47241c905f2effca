"""The embedder of a one-shot command, built on a thread of its own while the command starts.

Building MiniLM costs a one-shot `query` ~0.15 s after its imports (the tokenizer and ONNX Runtime's
session, which mostly run without the GIL), and the question waits for it only at the embedding.
Meanwhile the main thread imports the driver, connects and checks the schema, and the reader threads
read the question's names and the fusion's BM25.
This module imports nothing heavy itself: importing it must not load numpy (tests/unit/cli).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

MINILM_DIMENSION = 384  # all-MiniLM-L6-v2's, known before it is built (BackgroundEmbedder.get checks it)


class BackgroundEmbedder:
    """An embedder that `build()` makes on its own thread; `dimension` is known before it is built (the
    schema check and the retrieval context need it), the other methods wait for the build. An error of
    the build is raised, as it was raised, by the first call that needs the embedder."""

    def __init__(self, build: Callable[[], Any], dimension: int) -> None:
        self._dimension = dimension
        self._embedder: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._build, args=(build,), name="memgraph-embedder-build",
                                        daemon=True)
        self._thread.start()

    def _build(self, build: Callable[[], Any]) -> None:
        try:
            self._embedder = build()
        except BaseException as error:  # noqa: BLE001 - raised again in the thread that needs the embedder
            self._error = error

    def get(self) -> Any:
        """The built embedder (waits for the build)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        if self._embedder.dimension != self._dimension:
            raise ValueError(f"the embedder makes {self._embedder.dimension}-dimensional vectors, not the "
                             f"{self._dimension} announced before it was built")
        return self._embedder

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed_query(self, text: str):
        return self.get().embed_query(text)

    def embed_documents(self, texts, batch_size: int | None = None, show_progress: bool = False):
        return self.get().embed_documents(texts, batch_size=batch_size, show_progress=show_progress)

    def __getattr__(self, name: str) -> Any:  # name, tokenizer, ...: the built embedder's
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.get(), name)

    def close(self) -> None:
        """Wait for the build to end (its thread must not outlive the command)."""
        self._thread.join()


def _build_minilm() -> Any:
    from memgraph_neo4j.embeddings import get_minilm

    return get_minilm()


def _import_minilm() -> None:
    """MiniLM's libraries, imported in the calling thread before the build starts: imports hold the GIL,
    and the build thread importing them beside the main thread's imports cost a one-shot `query` ~0.1 s
    more CPU than importing one after the other (GIL hand-offs between the 2 cores; 25 alternating runs).
    What is left to the thread, the tokenizer and ONNX Runtime's session, mostly runs without the GIL."""
    import memgraph_neo4j.embeddings.minilm  # noqa: F401 - numpy, tokenizers, safetensors

    try:
        import onnxruntime  # noqa: F401
    except ImportError:  # the numpy runtime
        pass


_ahead: BackgroundEmbedder | None = None  # started by `minilm_ahead`, handed over by `minilm`


@contextmanager
def minilm_ahead() -> Iterator[None]:
    """Start building MiniLM before the command line is parsed, for the one-shot command about to run
    (`minilm` hands it over): importing the command's module and building its typer app took a one-shot
    `query` ~0.1-0.2 s before the command started the build itself. Ends waiting for the build."""
    global _ahead
    _import_minilm()
    _ahead = BackgroundEmbedder(_build_minilm, MINILM_DIMENSION)
    try:
        yield
    finally:
        embedder, _ahead = _ahead, None
        embedder.close()


@contextmanager
def minilm() -> Iterator[BackgroundEmbedder]:
    """MiniLM for a one-shot command: the one `minilm_ahead` started, else one started now."""
    if _ahead is not None:
        yield _ahead
        return
    _import_minilm()
    embedder = BackgroundEmbedder(_build_minilm, MINILM_DIMENSION)
    try:
        yield embedder
    finally:
        embedder.close()
