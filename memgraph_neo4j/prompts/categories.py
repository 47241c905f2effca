"""The prompts of the category hierarchy (Mnemis-style): grouping a layer bottom-up, placing new
items into an existing layer (the incremental update), and System-2's top-down Global Selection.
Items are shown numbered ("[3] Caroline (Person)"); replies name them by number."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

CATEGORIES_VERSION = "categories-v1"

GROUP_SYSTEM = (
    "You organise a memory into categories. Given numbered items (entities, or categories of a lower "
    "layer with their summaries), propose broader categories that group them by topic or kind. An item "
    "may belong to several categories; every category should hold at least {min_children} items; use "
    "fewer categories than items. Give each category a short name and a one-sentence summary of what it "
    'holds. Reply with JSON only: {{"categories": [{{"name": "...", "summary": "...", "members": [1, 4]}}]}}'
)

ASSIGN_SYSTEM = (
    "You keep a memory's categories up to date. Given the existing categories (numbered, with summaries) "
    "and new numbered items, put each new item into every existing category it fits; for items that fit "
    "none, propose new categories (at least {min_children} members each). If a category's summary no "
    "longer covers its members, give a revised summary. Reply with JSON only: "
    '{{"assignments": [{{"item": 1, "categories": [2]}}], '
    '"new_categories": [{{"name": "...", "summary": "...", "members": [3]}}], '
    '"summaries": [{{"category": 2, "summary": "..."}}]}}'
)

SELECT_SYSTEM = (
    "You find where a memory holds the answer to a question. Given the question and numbered categories "
    "with summaries, choose every category that may hold something relevant. If every category shown is "
    'relevant, say so with "all": true. Reply with JSON only: {"selected": [1, 3], "all": false}'
)


class ProposedCategory(BaseModel):
    name: str
    summary: str = ""
    members: list[int] = Field(default_factory=list)


class GroupReply(BaseModel):
    categories: list[ProposedCategory] = Field(default_factory=list)


class Assignment(BaseModel):
    item: int
    categories: list[int] = Field(default_factory=list)


class SummaryUpdate(BaseModel):
    category: int
    summary: str


class AssignReply(BaseModel):
    assignments: list[Assignment] = Field(default_factory=list)
    new_categories: list[ProposedCategory] = Field(default_factory=list)
    summaries: list[SummaryUpdate] = Field(default_factory=list)


class SelectReply(BaseModel):
    selected: list[int] = Field(default_factory=list)
    all: bool = False


def numbered(items: Sequence[tuple[str, str | None]]) -> str:
    """(label, detail) pairs as numbered lines, from 1."""
    return "\n".join(f"[{i}] {label}" + (f": {detail}" if detail else "") for i, (label, detail) in
                     enumerate(items, 1))


def group_prompt(items: Sequence[tuple[str, str | None]], layer: int) -> str:
    kind = "Entities" if layer == 1 else f"Categories of layer {layer - 1}"
    return f"{kind}:\n{numbered(items)}"


def assign_prompt(categories: Sequence[tuple[str, str | None]], items: Sequence[tuple[str, str | None]],
                  layer: int) -> str:
    kind = "entities" if layer == 1 else f"categories of layer {layer - 1}"
    return f"Existing categories:\n{numbered(categories)}\n\nNew {kind}:\n{numbered(items)}"


def select_prompt(question: str, categories: Sequence[tuple[str, str | None]]) -> str:
    return f"Question: {question}\n\nCategories:\n{numbered(categories)}"
