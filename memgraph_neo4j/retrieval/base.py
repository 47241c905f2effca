"""The one interface every retrieval method implements, and what they return."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")  # coarse: `matched` only needs to find where the words are


class Hit(BaseModel):
    id: str
    name: str | None = None
    score: float
    text: str | None = None
    page: int | None = None  # passages: first and last page in a paged document (PDF)
    page_end: int | None = None
    heading: str | None = None  # passages: heading path where the passage starts ("History > Roman era")
    # passages: [offset into text, page, heading] where the page or heading changes inside the passage;
    # not part of the hit's output, only what `at` reads
    sections: list[tuple[int, int | None, str | None]] | None = Field(default=None, exclude=True)

    def at(self, sentence: str) -> Hit:
        """The hit as its `sentence` locates it: the page and heading in force where that sentence starts
        in the passage (the evidence, not the passage's start); itself when the sentence is not found or
        the passage never changes page or heading."""
        if not self.sections or not self.text or (offset := self.text.find(sentence)) < 0:
            return self
        _, page, heading = max((s for s in self.sections if s[0] <= offset), key=lambda s: s[0],
                               default=self.sections[0])
        return self.model_copy(update={"page": page, "page_end": page, "heading": heading, "sections": None})

    def matched(self, question: str) -> Hit:
        """The hit located at the sentence of its passage that shares most words with `question` (the first
        of equals): the page and heading of the evidence, when the passage changes them; else itself."""
        if not self.sections or not self.text:
            return self
        asked = {w for w in _WORD.findall(question.lower()) if len(w) > 3}
        candidates = [s for line in self.text.splitlines() for s in _SENTENCE_END.split(line) if s.strip()]
        best = max(candidates, key=lambda s: len(asked & set(_WORD.findall(s.lower()))), default="")
        return self.at(best.strip()) if best.strip() else self

    def label(self) -> str:
        """How a citation names a passage: "Report, pp. 3-4, § Methods > Sampling" (the name alone
        without provenance; a heading path's leading document title is not repeated)."""
        parts = [self.name] if self.name else []
        if self.page is not None:
            end = self.page_end if self.page_end is not None else self.page
            parts.append(f"p. {self.page}" if end == self.page else f"pp. {self.page}-{end}")
        heading = self.heading or ""
        if self.name and (heading == self.name or heading.startswith(f"{self.name} > ")):
            heading = heading[len(self.name) + 3:]
        if heading:
            parts.append(f"§ {heading}")
        return ", ".join(parts)


def episode_title(speaker: str | None, time: datetime | None) -> str | None:
    """How a hit names an episode (a message has no title): "Caroline, 2023-05-08 13:56", the date alone at
    midnight (a day without a clock), the speaker alone without a time; None for a passage that is no episode."""
    if not speaker:
        return None
    if time is None:
        return speaker
    return f"{speaker}, {time:%Y-%m-%d}" + (f" {time:%H:%M}" if (time.hour, time.minute) != (0, 0) else "")


class RetrievalResult(BaseModel):
    method: str
    passages: list[Hit]
    entities: list[Hit] = Field(default_factory=list)
    facts: list[Hit] = Field(default_factory=list)  # the facts that seeded PPR
    schemas: list[Hit] = Field(default_factory=list)  # the schemas that seeded PPR
    fallback: bool = False  # no fact/schema passed the thresholds: dense passages were returned
    timings_ms: dict[str, float] = Field(default_factory=dict)


@runtime_checkable
class Retriever(Protocol):
    """One retrieval method over one memory space (dense, bm25, hipporag2, memgraphrag)."""

    method: str

    def search(self, question: str, top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        """The top_k passages (graph methods: also the top_m entities and the hits that seeded them),
        with per-stage timings in milliseconds."""
        ...


class StageTimer:
    """Milliseconds per named stage; a stage named twice adds up."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._t = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = self.laps.get(name, 0.0) + (now - self._t) * 1000
        self._t = now

    def rounded(self) -> dict[str, float]:
        return {k: round(v, 2) for k, v in self.laps.items()}


_BLAS: Any = None  # threadpoolctl's controller, found once (scanning the loaded libraries costs ~10 ms)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run a query's matrix-vector products on one BLAS thread. They are small (MuSiQue: 28k x 384);
    OpenBLAS threads spinning against the embedder, PageRank and Neo4j on 2 loaded cores made the three
    layer searches 25 ms instead of 2.3 ms (benchmarks/results/tuning)."""
    global _BLAS
    if _BLAS is None:
        try:
            from threadpoolctl import ThreadpoolController

            _BLAS = ThreadpoolController()
        except ImportError:  # pragma: no cover - threadpoolctl is a dependency
            _BLAS = False
    if _BLAS is False:
        yield
        return
    with _BLAS.limit(limits=1, user_api="blas"):
        yield
