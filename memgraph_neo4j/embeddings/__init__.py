"""Embedding providers behind one `Embedder` interface; `make_embedder` picks one by name.

Providers are imported lazily so that e.g. the OpenAI SDK or torch is only loaded when
that provider is actually asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Embedder

if TYPE_CHECKING:
    from .minilm import MiniLMEmbedder

__all__ = ["PROVIDERS", "Embedder", "get_minilm", "make_embedder"]

PROVIDERS = ("minilm", "openai", "sentence-transformers")


def get_minilm() -> MiniLMEmbedder:
    """Process-wide bundled all-MiniLM-L6-v2 (see `minilm.get_minilm`)."""
    from .minilm import get_minilm as _get

    return _get()


def make_embedder(provider: str = "minilm", **kwargs: Any) -> Embedder:
    """Build an embedder: "minilm" (bundled, offline), "openai" (any OpenAI-compatible
    endpoint: OpenAI, Ollama, vLLM; needs `model=`) or "sentence-transformers"."""
    key = provider.strip().lower().replace("_", "-")
    if key == "minilm":
        if kwargs:  # the shared instance avoids loading/hashing 90 MB twice
            from .minilm import MiniLMEmbedder

            return MiniLMEmbedder(**kwargs)
        return get_minilm()
    if key == "openai":
        from .openai_compat import OpenAIEmbedder

        return OpenAIEmbedder(**kwargs)
    if key in ("sentence-transformers", "st"):
        from .sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(**kwargs)
    raise ValueError(f"unknown embedding provider {provider!r}; choose one of {', '.join(PROVIDERS)}")
