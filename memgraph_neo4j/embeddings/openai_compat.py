"""Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM...)."""

from __future__ import annotations

import os

import numpy as np

from .base import Embedder

__all__ = ["OpenAIEmbedder"]


class OpenAIEmbedder(Embedder):
    """Calls `client.embeddings.create` in batches; rows are L2-normalised by the base class.

    `dimension`: expected vector size. If omitted it is learned from the first response
    (asking `.dimension` before any call costs one tiny request). `request_dimensions=True`
    also sends it as the API's `dimensions` parameter (text-embedding-3 models shorten
    their output; most local servers reject the parameter, hence off by default).
    Retries/timeouts are the SDK's (`max_retries`, `timeout`).
    """

    default_batch_size = 128

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        dimension: int | None = None,
        batch_size: int = 128,
        *,
        request_dimensions: bool = False,
        max_retries: int = 3,
        timeout: float = 60.0,
    ) -> None:
        from openai import OpenAI

        if base_url and not (api_key or os.environ.get("OPENAI_API_KEY")):
            api_key = "unused"  # local servers (Ollama, vLLM) ignore it; the SDK demands one
        self.model = model
        self.name = f"openai:{model}"
        self.default_batch_size = batch_size
        self._dim = dimension
        self._request_dimensions = request_dimensions and dimension is not None
        self.client = OpenAI(base_url=base_url, api_key=api_key, max_retries=max_retries, timeout=timeout)

    @property
    def dimension(self) -> int:
        if self._dim is None:
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    def _request(self, texts: list[str]) -> np.ndarray:
        extra = {"dimensions": self._dim} if self._request_dimensions else {}
        resp = self.client.embeddings.create(
            model=self.model,
            # OpenAI rejects empty strings; a space embeds the same "nothing".
            input=[t if t else " " for t in texts],
            encoding_format="float",  # base64 is not supported by every compatible server
            **extra,
        )
        data = sorted(resp.data, key=lambda d: d.index)  # servers may reorder
        if len(data) != len(texts):
            raise RuntimeError(f"{self.name}: sent {len(texts)} texts, got {len(data)} embeddings")
        vecs = np.asarray([d.embedding for d in data], dtype=np.float32)
        if self._dim is None:
            self._dim = vecs.shape[1]
        elif vecs.shape[1] != self._dim:
            raise RuntimeError(
                f"{self.name}: server returned {vecs.shape[1]}-d vectors, expected {self._dim}"
            )
        return vecs

    def _embed(self, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
        starts = range(0, len(texts), batch_size)
        if show_progress:
            from tqdm.auto import tqdm

            starts = tqdm(starts, desc=f"embed ({self.name})", unit="batch")
        return np.concatenate([self._request(texts[s : s + batch_size]) for s in starts])
