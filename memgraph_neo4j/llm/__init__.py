"""LLM provider layer: chat clients that return JSON text with token usage and cost."""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.llm.chat import ChatClient, ChatResult, LangChainChat, OpenAIChat, Price, approx_tokens
from memgraph_neo4j.llm.prices import PER_MILLION, price_for

__all__ = ["PER_MILLION", "PROVIDERS", "ChatClient", "ChatResult", "LangChainChat", "OpenAIChat", "Price",
           "approx_tokens", "make_chat", "price_for"]

# OpenAI-compatible local servers: provider name -> default base_url.
_LOCAL = {"ollama": "http://localhost:11434/v1", "vllm": "http://localhost:8000/v1"}
PROVIDERS = ("openai", *_LOCAL, "langchain")


def make_chat(provider: str, **kw: Any) -> ChatClient:
    """Build a chat client: ``openai`` / ``ollama`` / ``vllm`` (OpenAIChat kwargs) or ``langchain`` (model=...)."""
    name = provider.strip().lower()
    if name == "openai":
        return OpenAIChat(**kw)
    if name in _LOCAL:
        kw.setdefault("base_url", _LOCAL[name])
        return OpenAIChat(**kw)
    if name == "langchain":
        from langchain_core.language_models import BaseChatModel

        model = kw.get("model")
        if not isinstance(model, BaseChatModel):
            raise TypeError(f"provider 'langchain' needs model=<a langchain BaseChatModel>, got {type(model).__name__}")
        return LangChainChat(**kw)
    raise ValueError(f"unknown LLM provider {provider!r}; expected one of: {', '.join(PROVIDERS)}")
