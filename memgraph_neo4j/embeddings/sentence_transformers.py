"""Optional provider: any sentence-transformers model (needs the `st` extra, i.e. torch)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import Embedder

__all__ = ["SentenceTransformerEmbedder"]

_INSTALL_HINT = (
    "the 'sentence-transformers' provider needs the optional dependency: "
    "pip install 'memgraph-neo4j[st]' (or use provider='minilm', which needs no torch)"
)


class SentenceTransformerEmbedder(Embedder):
    """Wraps `sentence_transformers.SentenceTransformer` (GPU if available, any HF model)."""

    def __init__(
        self,
        model: str = "sentence-transformers/all-MiniLM-L6-v2",
        device: str | None = None,
        batch_size: int = 64,
        **model_kwargs: Any,
    ) -> None:
        try:
            # absolute import: resolves to the installed package, not this module
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise ImportError(_INSTALL_HINT) from e
        self.model = SentenceTransformer(model, device=device, **model_kwargs)
        self.name = f"sentence-transformers:{model}"
        self.default_batch_size = batch_size
        # renamed in sentence-transformers 6; keep older releases working
        get_dim = getattr(self.model, "get_embedding_dimension", None) or \
            self.model.get_sentence_embedding_dimension
        dim = get_dim()
        if dim is None:
            dim = int(self.model.encode(["x"]).shape[1])
        self._dim = int(dim)

    @property
    def dimension(self) -> int:
        return self._dim

    def _embed(self, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
        return np.asarray(
            self.model.encode(
                texts,
                batch_size=batch_size,
                show_progress_bar=show_progress,
                normalize_embeddings=True,
                convert_to_numpy=True,
            ),
            dtype=np.float32,
        )
