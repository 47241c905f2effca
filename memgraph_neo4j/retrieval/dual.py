"""Dual-route retrieval (Mnemis): System-1 hybrid search ∪ System-2 Global Selection, fused by RRF.

System-2 (`GlobalSelection`) walks the category hierarchy (memory/categories.py) from the top: the
model is shown the roots (the top layer, and categories the layer above did not take) and chooses
the relevant ones; the chosen categories of layer 1 are kept, those above are opened and their
subcategories shown next, until nothing is left to open. Early stop: when the model finds every
category shown relevant ("all children are relevant"), the walk ends there and everything under them
is taken without asking further down. The selected categories' entities give System-2's episodes
(the passages that mention them or evidence their valid facts) and facts, each list ranked by cosine
similarity to the question.

`DualRetriever` (method "dual") fuses, list by list, System-1's ranking with System-2's (RRF, k = 60):
episodes, entities and facts, within the budget of k / 2k / 2k. A space without a hierarchy gets
System-1 alone (and no model call).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memgraph_neo4j.extractors.categories import ModelSelector, SelectFn
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.memory.categories import Item
from memgraph_neo4j.repository.categories import CategoryNode, CategoryRepository
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, StageTimer
from memgraph_neo4j.retrieval.context import RetrievalContext
from memgraph_neo4j.retrieval.hybrid import HybridConfig, HybridRetriever
from memgraph_neo4j.retrieval.rrf import RRF_K, rrf
from memgraph_neo4j.validation import SurfaceError


@dataclass
class Selection:
    """What Global Selection chose: the categories whose entities it takes, layer by layer."""

    categories: list[str] = field(default_factory=list)  # kept categories, in selection order
    entities: list[tuple[str, str]] = field(default_factory=list)  # (id, name) under them
    steps: list[list[str]] = field(default_factory=list)  # the categories chosen at each step
    early_stop: bool = False  # the model found all categories shown relevant
    calls: int = 0


class GlobalSelection:
    """System-2: the top-down walk (see the module docstring). `select_fn(question, items)` returns
    (chosen ids, all relevant); by default a ModelSelector on `chat`."""

    def __init__(self, repository: CategoryRepository, chat: ChatClient | None = None,
                 select_fn: SelectFn | None = None, max_steps: int = 8, max_shown: int = 60) -> None:
        if select_fn is None:
            if chat is None:
                raise SurfaceError("the dual method needs a chat model to walk the category hierarchy", "chat_model")
            self.selector = ModelSelector(chat)
            select_fn = self.selector.select
        self.repo, self.select_fn, self.max_steps, self.max_shown = repository, select_fn, max_steps, max_shown

    def select(self, question: str) -> Selection:
        selection = Selection()
        shown: list[CategoryNode] = self.repo.roots()
        kept: list[str] = []
        for _ in range(self.max_steps):
            if not shown:
                break
            chosen: list[str] = []
            every = True
            for start in range(0, len(shown), self.max_shown):
                part = shown[start:start + self.max_shown]
                ids, all_relevant = self.select_fn(question, [Item(c.id, c.name, c.summary) for c in part])
                selection.calls += 1
                chosen.extend(ids)
                every = every and all_relevant
            selection.steps.append(chosen)
            if every:  # every category shown is relevant: take all under them, ask no further
                selection.early_stop = True
                kept.extend(c.id for c in shown)
                break
            layer_of = {c.id: c.layer for c in shown}
            kept.extend(c for c in chosen if layer_of.get(c) == 1)
            shown = self.repo.children([c for c in chosen if layer_of.get(c, 1) > 1])
        selection.categories = list(dict.fromkeys(kept))
        selection.entities = self.repo.entities_under(selection.categories) if selection.categories else []
        return selection


@dataclass(frozen=True)
class DualConfig:
    system1: HybridConfig = HybridConfig()
    rrf_k: int = RRF_K
    candidates: int = 100  # System-2 episodes and facts ranked per query


class DualRetriever:
    """search(mode="dual"): System-1 ∪ System-2, fused by RRF."""

    method = "dual"

    def __init__(self, context: RetrievalContext, chat: ChatClient | None = None, config: DualConfig | None = None,
                 select_fn: SelectFn | None = None) -> None:
        self.context, self.config = context, config or DualConfig()
        self.system1 = HybridRetriever(context, self.config.system1)
        self.repository = CategoryRepository(context.search.store, context.space)
        self._chat, self._select_fn = chat, select_fn
        self.last_selection: Selection | None = None

    def _has_hierarchy(self) -> bool:
        return bool(self.repository.roots())

    def search(self, question: str, top_k: int = 10, top_m: int = 10, as_of: datetime | None = None) -> RetrievalResult:
        timer = StageTimer()
        s1 = self.system1
        lists = s1.lists(question, timer, as_of)
        episodes = [p for p, _ in s1.episode_ranking(lists)]
        entities, facts = [e for e, _ in lists.entities], [f for f, _ in lists.facts]
        texts = dict(s1._texts)
        s2_episodes: list[str] = []
        s2_entities: list[str] = []
        s2_facts: list[str] = []
        if self._has_hierarchy():
            selection = GlobalSelection(self.repository, self._chat, self._select_fn).select(question)
            self.last_selection = selection
            timer.lap("global_selection")
            ids = [e for e, _ in selection.entities]
            texts.update({e: name for e, name in selection.entities})
            if ids:
                vector = self.context.embed(question)
                n = self.config.candidates
                found = self.repository.entity_episodes(ids, vector, n, s1.states, as_of)
                found_facts = self.repository.entity_facts(ids, vector, n, s1.states, as_of)
                texts.update({r.id: r.text for r in [*found, *found_facts] if r.text})
                s2_episodes, s2_entities, s2_facts = [r.id for r in found], ids, [r.id for r in found_facts]
            timer.lap("system2")
        k = self.config.rrf_k
        ranking = s1.said_by(rrf([episodes, s2_episodes], k), as_of)
        fused_entities = rrf([entities, s2_entities], k)
        fused_facts = rrf([facts, s2_facts], k)
        result = RetrievalResult(
            method=self.method, passages=[Hit(id=p, score=s, text=texts.get(p)) for p, s in ranking[:top_k]],
            entities=[Hit(id=e, score=s, name=texts.get(e)) for e, s in fused_entities[:2 * top_k]],
            facts=[Hit(id=f, score=s, text=texts.get(f)) for f, s in fused_facts[:2 * top_k]])
        return self.context.finish(result, timer)


def dual_lists(system1: Sequence[str], system2: Sequence[str], k: int = RRF_K) -> list[str]:
    """The fused order of two episode rankings (for evaluation)."""
    return [p for p, _ in rrf([list(system1), list(system2)], k)]
