"""Transient model faults: a circuit breaker shared by every call of one chat client, and what a model
reply must hold to be used (grounded in its passage, of a sane size).

Retries with exponential backoff (`with_retries`: 0.5 s, 1 s, 2 s ...) wrap each model call of the
extraction and adjudication agents, with the parsing of its reply, so an unusable reply is asked again
too; bad requests and refused credentials are not retried. The breaker stops the retries from hammering
a provider that is down: after `threshold` consecutive failed calls it opens, and for `cooldown` seconds
every call fails at once with CircuitOpenError (not retried, so a 10,000-chunk ingest fails its chunks
in seconds and the next run retries them); then one trial call is let through, and its success closes
the breaker again.
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

from memgraph_neo4j.contracts import Extraction

__all__ = ["MAX_REPLY_CHARS", "CircuitBreaker", "CircuitOpenError", "RetriesExhausted", "ground_extraction",
           "retryable", "with_retries"]

T = TypeVar("T")

MAX_REPLY_CHARS = 200_000  # a longer reply to a 256-token passage is a runaway generation
MAX_FACTS = 200  # per passage; more are dropped (a passage of 256 word-pieces states far fewer)


class CircuitOpenError(RuntimeError):
    """The model failed too often in a row: calls are refused until the cool-down is over."""

    retryable = False  # retrying at once would only be refused again


class CircuitBreaker:
    def __init__(self, threshold: int = 5, cooldown: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 name: str = "model") -> None:
        if threshold < 1:
            raise ValueError(f"threshold must be >= 1, got {threshold}")
        self.threshold, self.cooldown, self.name = threshold, cooldown, name
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._last_error = ""
        self._trial = False  # a half-open trial call is running

    @property
    def state(self) -> str:
        with self._lock:
            if self._opened_at is None:
                return "closed"
            return "open" if self._clock() - self._opened_at < self.cooldown else "half-open"

    def call(self, fn: Callable[[], T]) -> T:
        self._before()
        try:
            result = fn()
        except Exception as exc:
            self._failure(exc)
            raise
        self._success()
        return result

    def _before(self) -> None:
        with self._lock:
            if self._opened_at is None:
                return
            waited = self._clock() - self._opened_at
            if waited >= self.cooldown and not self._trial:
                self._trial = True  # half-open: this one call tries the model again
                return
            left = max(self.cooldown - waited, 0.0)
            raise CircuitOpenError(f"{self.name}: not called, {self._failures} calls in a row failed (last: "
                                   f"{self._last_error}); trying again in {left:.0f}s")

    def _failure(self, exc: Exception) -> None:
        with self._lock:
            self._failures += 1
            self._last_error = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
            if self._trial or self._failures >= self.threshold:
                self._opened_at = self._clock()
            self._trial = False

    def _success(self) -> None:
        with self._lock:
            self._failures, self._opened_at, self._trial = 0, None, False


# -- retries ------------------------------------------------------------------------------------

_NO_RETRY_STATUS = {400, 401, 403, 404, 422}  # bad request / auth: retrying only burns time


class RetriesExhausted(Exception):
    """Every attempt failed (or one that must not be retried did): `error` is the last one."""

    def __init__(self, error: Exception, attempts: int) -> None:
        super().__init__(f"{type(error).__name__}: {error} (after {attempts} attempts)")
        self.error, self.attempts = error, attempts


def retryable(exc: Exception) -> bool:
    """A transient fault (timeout, connection, rate limit, server error, unusable reply), not a refusal
    the next attempt would get again (HTTP 4xx but 408/429, an open circuit)."""
    return getattr(exc, "status_code", None) not in _NO_RETRY_STATUS and getattr(exc, "retryable", True)


def with_retries(attempt: Callable[[], T], max_retries: int, backoff: float,
                 sleep: Callable[[float], None] = time.sleep) -> tuple[T, int]:
    """`attempt()` and how many attempts it took, tried again up to `max_retries` times after a retryable
    failure, waiting `backoff` seconds before the first retry and twice as long before each next one.
    Raises RetriesExhausted with the last error."""
    attempts = 0
    while True:
        attempts += 1
        try:
            return attempt(), attempts
        except Exception as exc:
            if not retryable(exc) or attempts > max_retries:
                raise RetriesExhausted(exc, attempts) from exc
        sleep(backoff * 2 ** (attempts - 1))


# -- grounding ----------------------------------------------------------------------------------

_WORD = re.compile(r"\w+")


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


def _grounded(name: str, passage: str, words: set[str], known: set[str]) -> bool:
    """The passage states the name (or a known entity's name or alias the model was given): as written,
    or at least one of its words of 3+ characters (its digits for a value), so "Curie" grounds
    "Marie Curie"; a name none of whose words occur in the passage was made up."""
    norm = _norm(name)
    if not norm:
        return False
    if norm in known or f" {norm} " in passage:
        return True
    if not norm.isascii() and norm.replace(" ", "") in passage.replace(" ", ""):
        return True  # scripts written without spaces (CJK): a substring is a mention
    tokens = norm.split()
    digits = [t for t in tokens if t.isdigit()]
    if digits:
        return all(t in words for t in digits)
    return any(t in words for t in tokens if len(t) >= 3 or not t.isascii())


def ground_extraction(extraction: Extraction, passage: str, known_names: Iterable[str] = ()) -> tuple[Extraction, int]:
    """The extraction without what the passage does not state: facts whose head or tail is not grounded,
    entities that are not, and facts beyond MAX_FACTS. Returns it and the number of items dropped."""
    text = f" {_norm(passage)} "
    words = set(text.split())
    known = {_norm(n) for n in known_names}
    entities = [e for e in extraction.entities if _grounded(e.name, text, words, known)]
    facts = [f for f in extraction.facts
             if _grounded(f.head, text, words, known) and _grounded(f.tail, text, words, known)][:MAX_FACTS]
    dropped = len(extraction.entities) - len(entities) + len(extraction.facts) - len(facts)
    return (extraction if not dropped else Extraction(entities=entities, facts=facts)), dropped
