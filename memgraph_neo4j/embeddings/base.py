"""The `Embedder` interface shared by every embedding provider."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

__all__ = ["Embedder", "l2_normalize", "validate_texts"]

SHORT_TEXT = 64  # characters: names and type labels, not passages


def validate_texts(texts: Sequence[str]) -> list[str]:
    """Return `texts` as a list, raising ValueError that names the first non-str item."""
    if isinstance(texts, str):  # a lone str is a Sequence[str] too: catch the easy mistake
        raise ValueError("texts must be a list of str, not a single str (use embed_query)")
    out = list(texts)
    for i, t in enumerate(out):
        if not isinstance(t, str):
            raise ValueError(f"texts[{i}] is {type(t).__name__}, expected str")
    return out


def l2_normalize(x: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    """Row-wise L2 normalisation as float32 (same eps as torch.nn.functional.normalize)."""
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(norms, eps)


class Embedder(ABC):
    """Maps texts to float32, L2-normalised vectors of a fixed `dimension`.

    Subclasses implement `_embed`; validation, the empty case, dtype and normalisation
    are handled here so every provider behaves identically.
    """

    name: str
    default_batch_size: int = 64
    cache_size: int = 100_000  # short texts kept (~150 MB at 384 dimensions when full)

    @property
    @abstractmethod
    def dimension(self) -> int: ...

    @abstractmethod
    def _embed(self, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
        """Embed a non-empty list of validated strings; rows need not be normalised."""

    def embed_documents(
        self,
        texts: Sequence[str],
        batch_size: int | None = None,
        show_progress: bool = False,
    ) -> np.ndarray:
        """Embed `texts` -> float32 array of shape (len(texts), dimension), unit-norm rows."""
        items = validate_texts(texts)
        bs = batch_size or self.default_batch_size
        if bs < 1:
            raise ValueError(f"batch_size must be >= 1, got {bs}")
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # Short texts (entity names, types) recur across typing, resolution and batches: embed
        # each distinct one once per process.
        cache = self.__dict__.setdefault("_short_cache", {})
        todo = [t for t in dict.fromkeys(items) if t not in cache]
        if todo:
            vecs = l2_normalize(self._embed(todo, bs, show_progress))
            if vecs.shape != (len(todo), self.dimension):
                raise RuntimeError(
                    f"{self.name}: got embeddings of shape {vecs.shape}, "
                    f"expected {(len(todo), self.dimension)}"
                )
            fresh = dict(zip(todo, vecs))
            for text, vec in fresh.items():
                if len(text) <= SHORT_TEXT and len(cache) < self.cache_size:
                    cache[text] = vec
        else:
            fresh = {}
        return np.stack([fresh[t] if t in fresh else cache[t] for t in items])

    def holds(self, text: str) -> bool:
        """`text`'s vector is kept from an earlier call: embedding it again runs no model."""
        return text in self.__dict__.get("_short_cache", ())

    def clear_cache(self) -> None:
        """Forget every embedding kept between calls (a benchmark's cold start; what a new process has)."""
        self.__dict__.pop("_short_cache", None)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one string -> 1-D float32 array of length `dimension`."""
        if not isinstance(text, str):
            raise ValueError(f"query is {type(text).__name__}, expected str")
        return self.embed_documents([text])[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
