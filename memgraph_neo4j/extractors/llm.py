"""LLM extraction agent (A_ext): memory-guided prompt -> chat model -> validated Extraction.

Every input gets exactly one outcome, in input order: an Extraction, or an error saying what
failed (call error, timeout, unusable output, or "skipped: budget ..." once the budget is spent).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from memgraph_neo4j.contracts import (
    BUDGET_SKIP,
    Extraction,
    ExtractionInput,
    ExtractionOutcome,
    KnownSchema,
    MemoryGuide,
    Usage,
)
from memgraph_neo4j.llm.chat import ChatClient, ChatResult, approx_tokens
from memgraph_neo4j.llm.resilience import MAX_REPLY_CHARS, RetriesExhausted, ground_extraction, with_retries
from memgraph_neo4j.memory.ontology import Ontology, load_ontology
from memgraph_neo4j.prompts.chat_turn import guard_turn, turn_names
from memgraph_neo4j.prompts.extraction import parse_extraction, prompt_version, system_prompt, user_prompt

__all__ = ["LLMExtractor"]

log = logging.getLogger(__name__)

_COMPLETION_RATIO = 1.5  # expected completion tokens per passage token (JSON is verbose)
_MIN_COMPLETION = 100


class _InvalidOutput(ValueError):
    """The reply came but is not a usable extraction (asked again, like a failed call)."""


class _Stopped(RuntimeError):
    """The run was interrupted while the call waited for its answer (not retried)."""

    retryable = False


_POLL = 0.2  # seconds between looks at an interruption while a call waits for its answer


# -- agent ---------------------------------------------------------------------------------


class LLMExtractor:
    """Extractor over any ChatClient with bounded concurrency, retries and a token/cost budget.

    The budget is cumulative over the extractor's lifetime (all ``extract`` calls): once it is
    reached, chunks already running finish and the rest are skipped.
    """

    def __init__(
        self,
        chat: ChatClient,
        ontology: Ontology | None = None,
        concurrency: int = 4,
        max_retries: int = 3,  # retries after the first attempt
        backoff: float = 0.5,  # seconds before the first retry; doubles each time
        budget_tokens: int | None = None,
        budget_cost: float | None = None,
        timeout: float | None = 120.0,  # wall-clock guard per model call, on top of the client's own
        *,
        max_schemas: int = 50,
        max_entities: int = 30,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {concurrency}")
        if budget_cost is not None and chat.price is None:
            raise ValueError(f"a cost budget needs a price for model {chat.model!r}, which the price table "
                             "(llm/prices.py) does not list: give --price-input and --price-output (USD per "
                             "million tokens; in Python price=Price.per_million(input, output))")
        self.chat = chat
        self.name = chat.provider
        self.ontology = ontology if ontology is not None else load_ontology()
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.backoff = backoff
        self.budget_tokens = budget_tokens
        self.budget_cost = budget_cost
        self.timeout = timeout
        self.max_schemas = max_schemas
        self.max_entities = max_entities
        self._sleep = sleep
        self._system = system_prompt(self.ontology)
        self._spent = Usage()
        self._lock = threading.Lock()
        self._guide_lock = threading.Lock()  # guides need not be thread-safe
        self._stopping = threading.Event()  # the caller was interrupted: calls in flight stop waiting

    @property
    def spent(self) -> Usage:
        """Usage charged so far (every attempt, including failed ones)."""
        with self._lock:
            return self._spent.model_copy()

    def extract(self, items: list[ExtractionInput], guide: MemoryGuide) -> list[ExtractionOutcome]:
        if not items:
            return []
        # Stable schemas do not change within one call: ask the memory once.
        schemas = guide.stable_schemas(limit=self.max_schemas)
        self._stopping.clear()
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(items)), thread_name_prefix="extract") as pool:
            try:
                # map() starts items in input order and returns results in input order.
                return list(pool.map(lambda item: self._one(item, schemas, guide), items))
            except BaseException:  # Ctrl-C, SIGTERM: the pool's exit waits for its calls, so end them now
                self._stopping.set()
                raise

    def estimate(self, items: list[ExtractionInput], guide: MemoryGuide) -> Usage:
        """Expected usage without calling the model (for --dry-run): prompt tokens + expected completion."""
        count = _token_counter()
        schemas = guide.stable_schemas(limit=self.max_schemas)
        system = count(self._system)
        prompt = completion = 0
        for item in items:
            user = user_prompt(item, schemas, guide.known_entities(item.text, limit=self.max_entities))
            prompt += system + count(user)
            completion += max(_MIN_COMPLETION, int(_COMPLETION_RATIO * count(item.text)))
        cost = self.chat.price.cost(prompt, completion) if self.chat.price is not None else 0.0
        return Usage(prompt_tokens=prompt, completion_tokens=completion, cost=cost)

    # -- internals ----------------------------------------------------------------------

    def _outcome(self, item: ExtractionInput, **kw: Any) -> ExtractionOutcome:
        return ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, title=item.title, extractor=self.name,
                                 prompt_version=prompt_version(item), **kw)

    def _budget_left(self) -> str | None:
        """None while there is budget; else why not."""
        with self._lock:
            tokens = self._spent.prompt_tokens + self._spent.completion_tokens
            if self.budget_tokens is not None and tokens >= self.budget_tokens:
                return f"{BUDGET_SKIP} exhausted ({tokens} of {self.budget_tokens} tokens used)"
            if self.budget_cost is not None and self._spent.cost >= self.budget_cost:
                return f"{BUDGET_SKIP} exhausted (cost {self._spent.cost:.4f} of {self.budget_cost:.4f})"
        return None

    def _one(self, item: ExtractionInput, schemas: list[KnownSchema], guide: MemoryGuide) -> ExtractionOutcome:
        if (skipped := self._budget_left()) is not None:
            return self._outcome(item, error=skipped, attempts=0, model=self.chat.model)
        try:
            with self._guide_lock:
                entities = guide.known_entities(item.text, limit=self.max_entities)
        except Exception as exc:
            return self._outcome(item, error=f"memory guide failed: {type(exc).__name__}: {exc}",
                                 attempts=0, model=self.chat.model)
        user = user_prompt(item, schemas, entities)
        usage, model = Usage(), self.chat.model

        def attempt() -> Extraction:
            nonlocal usage, model
            result = self._call(user)
            usage, model = usage + result.usage, result.model
            with self._lock:
                self._spent = self._spent + result.usage
            try:
                if len(result.text) > MAX_REPLY_CHARS:  # a runaway generation: not parsed, asked again
                    raise ValueError(f"a reply of {len(result.text):,} characters, over {MAX_REPLY_CHARS:,}")
                return parse_extraction(result.text)
            except ValueError as exc:
                raise _InvalidOutput(str(exc)) from exc

        try:
            extraction, attempts = with_retries(attempt, self.max_retries, self.backoff, self._sleep)
        except RetriesExhausted as failed:
            exc = failed.error
            error = (f"invalid model output: {exc}" if isinstance(exc, _InvalidOutput)
                     else f"model call failed: {type(exc).__name__}: {exc}")
            return self._outcome(item, error=f"{error} (after {failed.attempts} attempts)",
                                 attempts=failed.attempts, usage=usage, model=model)
        # a message's "I" is its speaker, "you" the addressee, and "Congrats" nobody, whatever the model made of them
        extraction, guarded = guard_turn(extraction, item)
        if guarded:
            log.info("%s: dropped %d facts or entities of pronouns or interjections", item.passage_id, guarded)
        # what the passage does not state (a made-up entity) is dropped; a message's addressee is known
        extraction, dropped = ground_extraction(extraction, f"{item.title or ''}\n{item.text}",
                                                [n for e in entities for n in (e.name, *e.aliases)] + turn_names(item))
        if dropped:
            log.info("%s: dropped %d facts or entities the passage does not state", item.passage_id, dropped)
        return self._outcome(item, extraction=extraction, attempts=attempts, usage=usage, model=model)

    def _call(self, user: str) -> ChatResult:
        if self.timeout is None:
            return self.chat.complete_json(self._system, user, Extraction)
        # A daemon thread, so a hung provider call can neither block us nor interpreter exit.
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["result"] = self.chat.complete_json(self._system, user, Extraction)
            except BaseException as exc:
                box["error"] = exc

        worker = threading.Thread(target=run, daemon=True, name="llm-call")
        worker.start()
        deadline = time.monotonic() + self.timeout
        while worker.is_alive() and not self._stopping.is_set() and (left := deadline - time.monotonic()) > 0:
            worker.join(min(left, _POLL))
        if worker.is_alive():
            if self._stopping.is_set():
                raise _Stopped("the run was interrupted")
            raise TimeoutError(f"no answer within {self.timeout:g}s")
        if "error" in box:
            raise box["error"]
        return box["result"]


def _token_counter() -> Callable[[str], int]:
    """MiniLM word-pieces (bundled, offline) as a stand-in for the provider tokenizer; else chars/4."""
    try:
        from memgraph_neo4j.ingest.chunking import default_tokenizer

        tok = default_tokenizer()
        return lambda text: len(tok.encode(text, add_special_tokens=False).ids)
    except Exception:  # tokenizer package missing or unreadable
        return approx_tokens
