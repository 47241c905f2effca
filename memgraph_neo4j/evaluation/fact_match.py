"""Scoring an extractor against hand-labelled passages: precision of what it produced, recall of what an
annotator expected (tests/fixtures/offline_precision.json holds both).

A produced fact is *real* unless its relation is ``co_occurs_with``; precision = real facts labelled
correct / real facts labelled. An expected fact is *found* when a produced fact labelled correct matches it:

- the ends: the same names after ``entity_key`` (case, whitespace, quotes, a leading "the", spaces around
  a hyphen), any of the expected end's alternatives counting;
- the relation: the same after the ontology's normalisation (synonyms -> the relation), or the
  relation's declared inverse with the ends swapped (``spouse_of`` is its own inverse); an expected
  relation the ontology does not declare (``annexed``) is matched by any real relation between the
  two ends, either way round (the annotator's open wording is not the extractor's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from memgraph_neo4j.memory.normalize import normalize_entity_name, normalize_relation, relation_key
from memgraph_neo4j.memory.ontology import Ontology

__all__ = ["CO_OCCURS", "Expected", "Score", "entity_key", "found", "score"]

CO_OCCURS = "co_occurs_with"
Fact = tuple[str, str, str]


@dataclass(frozen=True)
class Expected:
    heads: tuple[str, ...]  # the name and its alternatives ("NSWIS")
    relation: str
    tails: tuple[str, ...]
    speaker: bool = False  # a first-person fact of a chat message, said of its speaker

    @classmethod
    def of(cls, record: dict) -> Expected:
        def names(v: str | Sequence[str]) -> tuple[str, ...]:
            return (v,) if isinstance(v, str) else tuple(v)
        return cls(names(record["head"]), record["relation"], names(record["tail"]), bool(record.get("speaker")))


@dataclass
class Score:
    passages: int = 0
    real: int = 0  # real facts produced and labelled
    correct: int = 0  # of them labelled correct
    unlabelled: int = 0  # real facts produced that the labels do not know
    expected: int = 0
    found: int = 0
    orphans: int = 0  # entities (of `names`) that no real fact links: they only co-occur, or nothing
    missed: list[tuple[int, Expected]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.real if self.real else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def per_passage(self) -> float:
        return self.real / self.passages if self.passages else 0.0

    def row(self) -> dict[str, float | int]:
        return {"passages": self.passages, "real_facts": self.real, "real_correct": self.correct,
                "real_per_passage": round(self.per_passage, 2), "precision": round(self.precision, 3),
                "expected": self.expected, "found": self.found, "recall": round(self.recall, 3),
                "orphans": self.orphans}


_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_HYPHEN = re.compile(r"\s*([-\u2010\u2011\u2013])\s*")


def entity_key(name: str) -> str:
    """'The Flower of Hawaii' = 'Flower of Hawaii', 'Frito - Lay' = 'Frito-Lay'."""
    return _HYPHEN.sub(r"\1", _ARTICLE.sub("", normalize_entity_name(name)))


def _canonical(relation: str, ontology: Ontology) -> str:
    return normalize_relation(relation, ontology) or relation_key(relation)


def found(expected: Expected, produced: Iterable[Fact], ontology: Ontology) -> bool:
    """Whether one of `produced` (facts labelled correct, co-occurrence excluded) states `expected`."""
    heads = {entity_key(h) for h in expected.heads}
    tails = {entity_key(t) for t in expected.tails}
    rel = _canonical(expected.relation, ontology)
    declared = ontology.relation(rel)
    inverse = _canonical(declared.inverse, ontology) if declared is not None and declared.inverse else None
    for h, r, t in produced:
        if r == CO_OCCURS:
            continue
        hk, tk, pr = entity_key(h), entity_key(t), _canonical(r, ontology)
        forward, backward = hk in heads and tk in tails, hk in tails and tk in heads
        if declared is None and (forward or backward):
            return True
        if (forward and pr == rel) or (backward and inverse is not None and pr == inverse):
            return True
    return False


def score(labelled: Sequence[dict], produced: Sequence[Sequence[Fact]], ontology: Ontology,
          names: Sequence[Sequence[str]] | None = None, speaker_facts: bool = True) -> Score:
    """One Score over passages: `labelled[i]` is a fixture passage ({facts: [{head, relation, tail, correct}],
    expected: [...]}), `produced[i]` what the extractor gives for it now, `names[i]` its named entities (for
    the orphans; dates and quantities left out by the caller). `speaker_facts=False` leaves out the
    expected first-person facts of chat messages (those need the speaker resolved)."""
    s = Score()
    for i, (passage, facts) in enumerate(zip(labelled, produced, strict=True)):
        s.passages += 1
        labels = {(f["head"], f["relation"], f["tail"]): f["correct"] for f in passage.get("facts", [])}
        good = []
        for fact in map(tuple, facts):
            if fact[1] == CO_OCCURS:
                continue
            if fact not in labels:
                s.unlabelled += 1
                continue
            s.real += 1
            if labels[fact]:
                s.correct += 1
                good.append(fact)
        if names is not None:
            linked = {entity_key(x) for h, r, t in facts if r != CO_OCCURS for x in (h, t)}
            s.orphans += len({entity_key(n) for n in names[i]} - linked)
        for e in map(Expected.of, passage.get("expected", [])):
            if e.speaker and not speaker_facts:
                continue
            s.expected += 1
            if found(e, good, ontology):
                s.found += 1
            else:
                s.missed.append((i, e))
    return s
