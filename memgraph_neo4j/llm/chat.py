"""Chat-model clients that return raw JSON text plus token usage and cost.

The extraction agent only needs "system + user in, JSON text out"; parsing, repair and
retries live in the agent so every provider gets the same treatment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel

from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.llm.resilience import CircuitBreaker

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["ChatClient", "ChatResult", "LangChainChat", "OpenAIChat", "Price", "approx_tokens", "chat_from_environment"]


def approx_tokens(text: str) -> int:
    """Rough token count (~4 characters per token) for providers that report no usage."""
    return (len(text) + 3) // 4


@dataclass(frozen=True, slots=True)
class Price:
    """Price per 1,000 prompt / completion tokens, in the user's currency."""

    input_per_1k: float
    output_per_1k: float

    @classmethod
    def per_million(cls, input_per_million: float, output_per_million: float) -> Price:
        """From prices per million tokens, as providers list them (llm/prices.py)."""
        return cls(input_per_million / 1000.0, output_per_million / 1000.0)

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.input_per_1k + completion_tokens * self.output_per_1k) / 1000.0


@dataclass(frozen=True, slots=True)
class ChatResult:
    text: str  # the raw completion; may be invalid JSON
    usage: Usage
    model: str


@runtime_checkable
class ChatClient(Protocol):
    provider: str  # "openai" | "langchain": becomes the extractor name on each outcome
    model: str
    price: Price | None

    def complete_json(self, system: str, user: str, schema: type[BaseModel]) -> ChatResult:
        """One chat completion asking for JSON matching ``schema``; raises on failure or timeout."""
        ...


def _usage(price: Price | None, prompt_tokens: int, completion_tokens: int) -> Usage:
    cost = price.cost(prompt_tokens, completion_tokens) if price is not None else 0.0
    return Usage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost=cost)


class OpenAIChat:
    """OpenAI chat completions; ``base_url`` also serves Ollama, vLLM and other compatible servers."""

    provider = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60,
        json_mode: bool = True,
        price: Price | None = None,
        *,
        structured: bool = False,
        temperature: float | None = 0.0,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        self.model = model
        self.breaker = breaker or CircuitBreaker(name=model)  # shared by every call of this client
        self.price = price
        self.timeout = timeout
        self.json_mode = json_mode
        self.structured = structured  # response_format=json_schema; not every server supports it
        self.temperature = temperature  # None for models that reject the parameter (reasoning models)
        # Local servers ignore the key but the SDK insists on one.
        self._key = api_key or os.environ.get("OPENAI_API_KEY") or ("unused" if base_url else None)
        self._base_url = base_url
        self._client = None  # made on the first call: a dry run (estimates only) needs no key

    @property
    def client(self):
        import openai

        if self._client is None:
            if self._key is None:
                raise ValueError(f"chat model {self.model!r}: OPENAI_API_KEY is not set; export it, or give base_url "
                                 "(--base-url) for a local OpenAI-compatible server such as Ollama or vLLM")
            # max_retries=0: the extraction agent retries with its own backoff and accounting.
            self._client = openai.OpenAI(api_key=self._key, base_url=self._base_url, timeout=self.timeout,
                                         max_retries=0)
        return self._client

    def complete_json(self, system: str, user: str, schema: type[BaseModel]) -> ChatResult:
        import openai

        kwargs: dict[str, Any] = {}
        if self.structured:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
            }
        elif self.json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        try:
            resp = self.breaker.call(lambda: self.client.chat.completions.create(model=self.model, messages=messages,
                                                                                 **kwargs))
        except openai.APITimeoutError as exc:
            # One exception type for timeouts whatever the provider.
            raise TimeoutError(f"{self.model}: no answer within {self.timeout:g}s") from exc
        if isinstance(resp, str):  # the SDK hands back a body that is not JSON as it came
            raise ValueError(f"{self.model}: the answer of {self.client.base_url} is not OpenAI-compatible JSON "
                             f"({' '.join(resp.split())[:80]!r})")
        text = (resp.choices[0].message.content or "") if resp.choices else ""
        if resp.usage is not None:
            usage = _usage(self.price, resp.usage.prompt_tokens or 0, resp.usage.completion_tokens or 0)
        else:  # some compatible servers omit usage
            usage = _usage(self.price, approx_tokens(system + user), approx_tokens(text))
        return ChatResult(text=text, usage=usage, model=resp.model or self.model)


class LangChainChat:
    """Any langchain-core chat model (sync ``invoke``); timeouts are the model's own settings."""

    provider = "langchain"

    def __init__(self, model: BaseChatModel, price: Price | None = None, breaker: CircuitBreaker | None = None) -> None:
        self.llm = model
        self.price = price
        self.model = str(getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__)
        self.breaker = breaker or CircuitBreaker(name=self.model)

    def complete_json(self, system: str, user: str, schema: type[BaseModel]) -> ChatResult:
        from langchain_core.messages import HumanMessage, SystemMessage

        msg = self.breaker.call(lambda: self.llm.invoke([SystemMessage(content=system), HumanMessage(content=user)]))
        text = msg.text  # a property in langchain-core 1.x; a method in early 0.3 releases
        text = str(text) if isinstance(text, str) else text()
        meta = getattr(msg, "usage_metadata", None)
        if meta:
            usage = _usage(self.price, int(meta.get("input_tokens", 0)), int(meta.get("output_tokens", 0)))
        else:
            usage = _usage(self.price, approx_tokens(system + user), approx_tokens(text))
        model = (getattr(msg, "response_metadata", None) or {}).get("model_name") or self.model
        return ChatResult(text=str(text), usage=usage, model=str(model))


def chat_from_environment(model: str, timeout: float | None = None) -> OpenAIChat | None:
    """The chat model the environment configures: OPENAI_API_KEY (api.openai.com, or OPENAI_BASE_URL) or
    OPENAI_BASE_URL alone (a local OpenAI-compatible server); None when neither is set. `timeout`: seconds
    per call (default the client's)."""
    base_url = os.environ.get("OPENAI_BASE_URL") or None
    if not (os.environ.get("OPENAI_API_KEY") or base_url):
        return None
    from memgraph_neo4j.llm.prices import price_for

    return OpenAIChat(model=model, base_url=base_url, price=price_for(model),
                      **({"timeout": timeout} if timeout is not None else {}))
