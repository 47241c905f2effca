"""The two adjudication prompts (paper §4.2.2, Appendix C) and their reply models.

Classification: one new fact, its candidate facts and their evidence -> per pair a conflict type,
a confidence and a reason. Resolution: one connected group of conflicting facts with all their
evidence -> a verdict per fact. Facts and passages are shown under labels (F1, C1, P1) that the
reply refers to; nothing of the reply is ever pasted into Cypher.
Bump the versions whenever the wording changes: they are recorded on every Conflict.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from memgraph_neo4j.contracts import ConflictType, Verdict

CLASSIFY_VERSION = "adj-classify-v1"
RESOLVE_VERSION = "adj-resolve-v1"


class FactView(BaseModel):
    """A fact as the prompts show it."""

    label: str
    text: str
    relation: str
    time: str | None = None
    passages: list[str] = Field(default_factory=list)  # "title: text", already cut to length


class PairClassification(BaseModel):
    candidate: str = Field(description="label of the candidate fact, e.g. C1")
    type: ConflictType
    confidence: float = Field(ge=0, le=1)
    reason: str = ""


class ClassificationReply(BaseModel):
    pairs: list[PairClassification] = Field(default_factory=list)


class FactVerdict(BaseModel):
    fact: str = Field(description="label of the fact, e.g. F1")
    verdict: Verdict
    into: str | None = Field(default=None, description="merge: label of the fact that absorbs this one")
    relation: str | None = Field(default=None, description="refine: a more specific lower_snake_case relation")
    valid_from: str | None = None
    valid_to: str | None = None
    ordinal: str | None = Field(default=None, description='qualify: e.g. "46th"')


class ResolutionReply(BaseModel):
    verdicts: list[FactVerdict]
    confidence: float = Field(ge=0, le=1)
    rationale: str = ""


CLASSIFY_SYSTEM = """You check a knowledge graph for conflicting facts.
You get one NEW fact and CANDIDATE facts already in memory, each with the passages it came from.
For every candidate decide how it relates to the new fact:
- mutual_exclusion: both cannot be true (two birth years of one person);
- temporal: both were true at different times (two presidents of one country);
- granularity: both are true at different levels of detail (born in a city / in its country);
- duplicate: the same fact stated twice;
- none: no conflict.
Judge only from the passages. Reply with JSON only:
{"pairs": [{"candidate": "C1", "type": "none", "confidence": 0.9, "reason": "..."}]}"""

RESOLVE_SYSTEM = """You resolve a group of conflicting facts in a knowledge graph, using only the passages.
Give every fact one verdict:
- keep: the fact stands as it is;
- discard: it is contradicted by better evidence (the evidence-backed value wins);
- merge: it duplicates another fact; "into" names the fact that absorbs it;
- qualify: it held for a period; give "valid_from" / "valid_to" (years or dates) or an "ordinal" ("46th");
- refine: it is true at another level of detail; give a more specific lower_snake_case "relation"
  (e.g. born_in_city, born_in_country).
Reply with JSON only:
{"verdicts": [{"fact": "F1", "verdict": "keep"}], "confidence": 0.9, "rationale": "..."}"""


def _render(fact: FactView) -> str:
    lines = [f"{fact.label}: {fact.text} [relation {fact.relation}" + (f", time {fact.time}]" if fact.time else "]")]
    lines += [f"  passage: {p}" for p in fact.passages]
    return "\n".join(lines)


def classify_prompt(new: FactView, candidates: list[FactView]) -> str:
    return "NEW fact:\n" + _render(new) + "\n\nCANDIDATE facts:\n" + "\n".join(_render(c) for c in candidates)


def resolve_prompt(facts: list[FactView], pairs: list[str]) -> str:
    return ("Facts:\n" + "\n".join(_render(f) for f in facts) + "\n\nConflicts found:\n"
            + "\n".join(f"- {p}" for p in pairs))
