"""One place that turns an extractor name and options into an `Extractor`."""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.config import Settings
from memgraph_neo4j.contracts import Extractor
from memgraph_neo4j.memory.ontology import Ontology

EXTRACTORS = ("offline", "openai", "langchain", "openie")
_CHAT_OPTIONS = ("model", "base_url", "api_key", "price", "timeout")
_AGENT_OPTIONS = ("concurrency", "max_retries", "budget_tokens", "budget_cost", "timeout")


def llm_options(settings: Settings, name: str) -> dict[str, Any]:
    """What the settings choose for an LLM extractor (`name` openai or langchain): its model (openai,
    MEMGRAPH_LLM_MODEL), seconds per call and retries (MEMGRAPH_LLM_TIMEOUT, _RETRIES); {} for the others."""
    if name not in ("openai", "langchain"):
        return {}
    chosen = {"model": settings.llm_model if name == "openai" else None, "timeout": settings.llm_timeout,
              "max_retries": settings.llm_retries}
    return {k: v for k, v in chosen.items() if v is not None}


def make_extractor(name: str, ontology: Ontology, embedder=None, **options: Any) -> Extractor:
    """offline | openai | langchain (pass chat_model=...) | openie (pass openie=PATH). The chat model's
    `price` defaults to the price table's (llm/prices.py); `timeout` (seconds) bounds each call of the client
    and of the agent's guard."""
    if name == "offline":
        from memgraph_neo4j.extractors.offline import OfflineExtractor

        return OfflineExtractor(ontology, embedder=embedder)
    if name == "openie":
        from memgraph_neo4j.extractors.openie import OpenIEExtractor, load_openie
        from memgraph_neo4j.extractors.typing import TypeAssigner

        path = options.get("openie")
        if not path:
            raise ValueError("the openie extractor needs the triples file: --openie FILE (HippoRAG OpenIE JSON)")
        if embedder is None:
            raise ValueError("typing imported entities needs an embedder (the default MiniLM)")
        return OpenIEExtractor(load_openie(path), TypeAssigner(ontology, embedder))
    if name in ("openai", "langchain"):
        from memgraph_neo4j.extractors.llm import LLMExtractor
        from memgraph_neo4j.llm import make_chat, price_for

        options = {k: v for k, v in options.items() if v is not None}
        if name == "langchain":
            if options.get("chat_model") is None:
                raise ValueError("the langchain extractor needs chat_model=<a langchain-core BaseChatModel>")
            chat = make_chat("langchain", model=options["chat_model"], price=options.get("price"))
        else:
            chat = make_chat("openai", **{k: v for k, v in options.items() if k in _CHAT_OPTIONS})
        if chat.price is None:
            chat.price = price_for(chat.model)
        return LLMExtractor(chat, ontology, **{k: v for k, v in options.items() if k in _AGENT_OPTIONS})
    raise ValueError(f"unknown extractor {name!r}: choose one of {', '.join(EXTRACTORS)}")
