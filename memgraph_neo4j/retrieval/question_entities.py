"""Entities and passage titles a question names: the lexical route from the question into the graph.

A question that names "Johnnycake, West Virginia" should seed that entity even when no stored fact
about it is similar to the question as a whole. The candidate spans are word n-grams of the
question that contain a capitalised word (not the question's first word) or a digit, i.e. names,
titles and years, not "country" or "performers": matching every n-gram measured 3-9 points of R@2
lower than matching only these (benchmarks/results/tuning). Each span is looked up under the same
normalised key the entity aliases are stored under (memory/normalize.py), and overlapping matches
keep the longest: "West Virginia" inside a matched "Johnnycake, West Virginia" does not seed twice.
Passage titles are names too (an encyclopaedia's "Christopher Nolan" page): the passages whose title
a span names are found by the title key stored with each passage (cypher/retrieval/memory_state_names),
or, for passages written without one, by `TitleIndex` from every title. Pure apart from the one read
per memory version TitleIndex takes.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass

from memgraph_neo4j.memory.normalize import bounded_key, normalize_entity_name
from memgraph_neo4j.repository.changes import Changes
from memgraph_neo4j.retrieval.changes import ChangeFeed, Followed
from memgraph_neo4j.retrieval.stopwords import FUNCTION_WORDS

MAX_SPAN_WORDS = 12  # long titles ("Alexander and the Terrible, Horrible, No Good, Very Bad Day")
_WORD = re.compile(r"[^\W_]+")
# single words never taken as names, even capitalised ("Who", "The" in the middle of a title is kept
# inside a longer span): the function words the fusion's BM25 also leaves out
_STOP = FUNCTION_WORDS


@dataclass(frozen=True, slots=True)
class Span:
    start: int  # first word
    end: int  # one past the last word
    key: str  # normalised as alias keys are


def candidate_spans(question: str, max_words: int = MAX_SPAN_WORDS) -> list[Span]:
    """Word n-grams that may name an entity, longest first; each carries its alias key."""
    words = list(_WORD.finditer(question))
    named = [i > 0 and (m.group()[:1].isupper() or m.group()[:1].isdigit()) for i, m in enumerate(words)]
    spans, seen = [], set()
    for n in range(min(max_words, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            if not any(named[i:i + n]):
                continue
            if n == 1 and (words[i].group().casefold() in _STOP or len(words[i].group()) < 3
                           and not words[i].group().isdigit()):
                continue
            key = normalize_entity_name(question[words[i].start():words[i + n - 1].end()])
            if key and (i, i + n) not in seen:
                seen.add((i, i + n))
                spans.append(Span(i, i + n, key))
    return spans


def longest_matches(spans: list[Span], known: Collection[str]) -> list[str]:
    """Keys of the spans found in `known`, longest first, skipping spans that overlap a longer match."""
    covered: set[int] = set()
    chosen: list[str] = []
    for span in sorted(spans, key=lambda s: (s.start - s.end, s.start)):
        words = set(range(span.start, span.end))
        if span.key in known and not words & covered:
            covered |= words
            if span.key not in chosen:
                chosen.append(span.key)
    return chosen


def titled_passages(spans: list[Span], by_key: Mapping[str, list[str]]) -> list[str]:
    """Passages whose whole title one of the spans is, in span order (`by_key`: passage ids by title key)."""
    found: list[str] = []
    for span in spans:
        found.extend(p for p in by_key.get(bounded_key(span.key), ()) if p not in found)
    return found


class TitleKeys:
    """Passage ids by normalised title (ids in ascending order, whatever order they arrived in)."""

    def __init__(self, titles: Iterable[tuple[str, str | None]] = ()) -> None:
        self.by_key: dict[str, list[str]] = {}
        self._key_of: dict[str, str] = {}
        for passage_id, title in titles:
            self.add(passage_id, title)

    def add(self, passage_id: str, title: str | None) -> None:
        self.remove(passage_id)
        if key := bounded_key(normalize_entity_name(title or "")):
            self._key_of[passage_id] = key
            insort(self.by_key.setdefault(key, []), passage_id)

    def remove(self, passage_id: str) -> None:
        old = self._key_of.pop(passage_id, None)
        if old is not None:
            self.by_key[old].remove(passage_id)
            if not self.by_key[old]:  # as a fresh read: no key without passages
                del self.by_key[old]

    def apply(self, changes: Changes) -> None:
        for passage_id in changes.removed_passages:
            self.remove(passage_id)
        for p in changes.passages:
            self.add(p.id, p.title)


class TitleIndex:
    """Passage ids by normalised title, from every title of the space (read once, then kept up to date
    from the writes): for spaces whose passages lack the stored title key (memory_state_names' `keyed`)."""

    def __init__(self, read: Callable[[], list[tuple[str, str]]], feed: ChangeFeed) -> None:
        self.copy: Followed[TitleKeys] = Followed(feed, lambda: TitleKeys(read()), TitleKeys.apply)

    def passages(self, spans: list[Span], version: int) -> list[str]:
        """Passages whose whole title one of the spans is, in span order."""
        with self.copy.hold():
            return titled_passages(spans, self.copy.at(version).by_key)
