"""The category hierarchy of one space (cypher/categories/*): Category nodes over entities, written by
memory/categories.py and walked top-down by System-2 Global Selection (retrieval/dual.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memgraph_neo4j.repository.base import Repository
from memgraph_neo4j.repository.conversation import Ranked


@dataclass(frozen=True)
class CategoryRow:
    id: str
    name: str
    summary: str
    layer: int  # 1: groups entities; n + 1: groups layer-n categories
    revision: int  # the hierarchy update that last created or changed it


@dataclass(frozen=True)
class MemberLink:
    child: str  # an Entity (layer 1) or a Category of the layer below
    parent: str  # a Category


@dataclass(frozen=True)
class CategoryNode:
    """One category as read back: its members (entity or category ids) and its parents."""

    id: str
    name: str
    summary: str | None
    layer: int
    revision: int | None = None
    members: list[str] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class EntityItem:
    id: str
    name: str
    type: str | None


class CategoryRepository(Repository):
    # ----- writes ------------------------------------------------------------------------------
    def write_categories(self, rows: Sequence[CategoryRow]) -> None:
        self._write_rows("categories/write_categories", rows)

    def link_entities(self, links: Sequence[MemberLink]) -> None:
        self._write_rows("categories/link_entities", links)

    def link_subcategories(self, links: Sequence[MemberLink]) -> None:
        self._write_rows("categories/link_subcategories", links)

    def delete_all(self) -> None:
        self.store.write("categories/delete_categories", space=self.space)

    # ----- reads -------------------------------------------------------------------------------
    def uncategorised(self, limit: int) -> list[EntityItem]:
        rows = self.store.read("categories/uncategorised_entities", space=self.space, limit=limit)
        return [EntityItem(r["id"], r["name"], r["type"]) for r in rows]

    def layer(self, layer: int) -> list[CategoryNode]:
        rows = self.store.read("categories/layer_categories", space=self.space, layer=layer)
        return [CategoryNode(r["id"], r["name"], r["summary"], r["layer"]) for r in rows]

    def hierarchy(self) -> list[CategoryNode]:
        rows = self.store.read("categories/hierarchy", space=self.space)
        return [CategoryNode(r["id"], r["name"], r["summary"], r["layer"], r["revision"], sorted(r["members"]),
                             sorted(r["parents"])) for r in rows]

    def roots(self) -> list[CategoryNode]:
        return [CategoryNode(r["id"], r["name"], r["summary"], r["layer"])
                for r in self.store.read("categories/roots", space=self.space)]

    def children(self, ids: Sequence[str]) -> list[CategoryNode]:
        return [CategoryNode(r["id"], r["name"], r["summary"], r["layer"])
                for r in self.store.read("categories/children", space=self.space, ids=list(ids))]

    def entities_under(self, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(id, name) of the entities under the categories, at any depth."""
        rows = self.store.read("categories/category_entities", space=self.space, ids=list(ids))
        return [(r["id"], r["name"]) for r in rows]

    def entity_episodes(self, ids: Sequence[str], vector: list[float], k: int, states: Sequence[str],
                        as_of: datetime | None) -> list[Ranked]:
        rows = self.store.read("categories/entity_episodes", space=self.space, ids=list(ids), vector=vector, k=k,
                               states=[str(s) for s in states], as_of=as_of)
        return [Ranked(r["id"], r["score"], r["text"]) for r in rows]

    def entity_facts(self, ids: Sequence[str], vector: list[float], k: int, states: Sequence[str],
                     as_of: datetime | None) -> list[Ranked]:
        rows = self.store.read("categories/entity_facts", space=self.space, ids=list(ids), vector=vector, k=k,
                               states=[str(s) for s in states], as_of=as_of)
        return [Ranked(r["id"], r["score"], r["text"]) for r in rows]
