"""The category hierarchy over entities (Mnemis's, updated incrementally instead of rebuilt).

Built bottom-up by model categorisation (`Categoriser`, extractors/categories.py holds the chat-model
one): layer 1 groups the entities, layer n + 1 groups the categories of layer n. Membership is
many-to-many; a category needs `min_children` members; a layer must be smaller than the one below
(`shrink`), else the building stops; at most `max_depth` layers, and none above a layer of at most
`top_size` categories (the model sees those at once). Every category carries a one-sentence summary.

`update()` is the incremental step, run when entities arrive: only the entities in no category yet
are shown to the model, with the existing layer-1 categories; they join existing categories (whose
summaries the model may revise) or form new ones, and only those new categories go one layer up, the
same way. Every category created or changed gets the update's `revision`; the others are not written,
so a category outside the affected branches keeps its members, summary and revision. An entity that
fits nowhere and finds too few peers for a new category stays uncategorised and is offered again at
the next update. With no hierarchy yet, `update()` builds one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.memory.normalize import content_hash, normalize_entity_name
from memgraph_neo4j.repository.categories import CategoryRepository, CategoryRow, MemberLink


@dataclass(frozen=True)
class CategoryConfig:
    min_children: int = 2  # members a category needs
    max_depth: int = 4  # layers at most
    shrink: float = 0.8  # a layer may hold at most this share of the items below it
    top_size: int = 8  # no layer above one of at most this many categories
    chunk: int = 40  # items shown to the model per call
    max_new_entities: int = 2000  # entities one update takes (the rest wait for the next)


@dataclass(frozen=True)
class Item:
    """What the model sees of an entity or a category: a label and a detail (type, summary)."""

    id: str
    label: str
    detail: str | None = None


@dataclass(frozen=True)
class Proposal:
    name: str
    summary: str
    members: tuple[str, ...]  # item ids


@dataclass
class Placement:
    """The model's answer to an incremental update at one layer."""

    assignments: dict[str, list[str]] = field(default_factory=dict)  # item id -> existing category ids
    proposals: list[Proposal] = field(default_factory=list)
    summaries: dict[str, str] = field(default_factory=dict)  # existing category id -> revised summary


class Categoriser(Protocol):
    usage: Usage

    def group(self, items: Sequence[Item], layer: int, min_children: int) -> list[Proposal]:
        """Categories over the items (one layer up), members by item id."""
        ...

    def place(self, categories: Sequence[Item], items: Sequence[Item], layer: int,
              min_children: int) -> Placement:
        """New items into existing categories of `layer`, or new categories for the rest."""
        ...


@dataclass
class HierarchyReport:
    revision: int = 0
    layers: int = 0
    categories_new: int = 0
    categories_touched: int = 0  # existing categories that got members or a new summary
    entities_placed: int = 0
    entities_left: int = 0  # fit nowhere yet: offered again at the next update
    calls: int = 0
    usage: Usage = field(default_factory=Usage)


def category_id(layer: int, name: str) -> str:
    return content_hash("category", str(layer), normalize_entity_name(name))


class CategoryHierarchy:
    def __init__(self, repository: CategoryRepository, categoriser: Categoriser,
                 config: CategoryConfig | None = None) -> None:
        self.repo, self.model, self.config = repository, categoriser, config or CategoryConfig()

    # ----- building ------------------------------------------------------------------------------
    def build(self, rebuild: bool = False) -> HierarchyReport:
        """The whole hierarchy from the entities (after deleting the old one with `rebuild`); with a
        hierarchy already there and no `rebuild`, the incremental update."""
        existing = self.repo.hierarchy()
        if existing and not rebuild:
            return self.update()
        if existing:
            self.repo.delete_all()
        report = HierarchyReport(revision=1 + max((c.revision or 0 for c in existing), default=0))
        items = self._entity_items(report)
        layer = 1
        while layer <= self.config.max_depth and len(items) >= self.config.min_children:
            proposals = self._group(items, layer, report)
            if not proposals or len(proposals) > self.config.shrink * len(items):
                break  # the layer would not shrink: the one below is the top
            self._write(proposals, layer, report)
            report.layers = layer
            if layer == 1:
                placed = {m for p in proposals for m in p.members}
                report.entities_placed = len(placed)
                report.entities_left = len(items) - len(placed)
            items = [Item(category_id(layer, p.name), p.name, p.summary) for p in proposals]
            if len(items) <= self.config.top_size:
                break
            layer += 1
        report.usage = self.model.usage
        return report

    def update(self) -> HierarchyReport:
        """Places the entities in no category yet (see the module docstring)."""
        existing = self.repo.hierarchy()
        if not existing:
            return self.build()
        report = HierarchyReport(revision=1 + max((c.revision or 0 for c in existing), default=0))
        top = max(c.layer for c in existing)
        by_id = {c.id: c for c in existing}
        items = self._entity_items(report)
        layer = 1
        while items and layer <= top:
            categories = [c for c in existing if c.layer == layer]
            shown = [Item(c.id, c.name, c.summary) for c in categories]
            placement = Placement()
            for start in range(0, len(items), self.config.chunk):
                part = self.model.place(shown, items[start:start + self.config.chunk], layer, self.config.min_children)
                report.calls += 1
                for item, targets in part.assignments.items():
                    placement.assignments.setdefault(item, []).extend(targets)
                placement.proposals.extend(part.proposals)
                placement.summaries.update(part.summaries)
            proposals = self._merge(placement.proposals, {i.id for i in items})
            links = [MemberLink(item, target) for item, targets in placement.assignments.items()
                     for target in dict.fromkeys(targets) if target in by_id]
            touched = {link.parent for link in links} | (set(placement.summaries) & set(by_id))
            rows = [CategoryRow(c, by_id[c].name, placement.summaries.get(c) or by_id[c].summary or "", layer,
                                report.revision) for c in sorted(touched)]
            self.repo.write_categories(rows)
            self._link(links, layer)
            self._write(proposals, layer, report)
            report.categories_touched += len(touched)
            if layer == 1:
                placed = {link.child for link in links} | {m for p in proposals for m in p.members}
                report.entities_placed = len(placed)
                report.entities_left = len(items) - len(placed)
            items = [Item(category_id(layer, p.name), p.name, p.summary) for p in proposals]
            layer += 1
        report.layers = top
        report.usage = self.model.usage
        return report

    # ----- steps ---------------------------------------------------------------------------------
    def _entity_items(self, report: HierarchyReport) -> list[Item]:
        return [Item(e.id, e.name, e.type) for e in self.repo.uncategorised(self.config.max_new_entities)]

    def _group(self, items: list[Item], layer: int, report: HierarchyReport) -> list[Proposal]:
        found: list[Proposal] = []
        for start in range(0, len(items), self.config.chunk):
            found.extend(self.model.group(items[start:start + self.config.chunk], layer, self.config.min_children))
            report.calls += 1
        return self._merge(found, {i.id for i in items})

    def _merge(self, proposals: list[Proposal], known: set[str]) -> list[Proposal]:
        """Proposals of one name (across chunks) as one category; members the model made up are
        dropped; categories with fewer than min_children members go."""
        merged: dict[str, Proposal] = {}
        for p in proposals:
            key = normalize_entity_name(p.name)
            if not key:
                continue
            members = tuple(m for m in p.members if m in known)
            if key in merged:
                old = merged[key]
                merged[key] = Proposal(old.name, old.summary or p.summary, tuple(dict.fromkeys(old.members + members)))
            else:
                merged[key] = Proposal(p.name.strip(), p.summary.strip(), tuple(dict.fromkeys(members)))
        return [p for p in merged.values() if len(p.members) >= self.config.min_children]

    def _write(self, proposals: list[Proposal], layer: int, report: HierarchyReport) -> None:
        if not proposals:
            return
        rows = [CategoryRow(category_id(layer, p.name), p.name, p.summary, layer, report.revision) for p in proposals]
        self.repo.write_categories(rows)
        self._link([MemberLink(m, row.id) for p, row in zip(proposals, rows) for m in p.members], layer)
        report.categories_new += len(rows)

    def _link(self, links: list[MemberLink], layer: int) -> None:
        if links:
            (self.repo.link_entities if layer == 1 else self.repo.link_subcategories)(links)
