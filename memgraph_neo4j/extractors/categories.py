"""The chat-model side of the category hierarchy: `ModelCategoriser` groups and places items for
memory/categories.py, `ModelSelector` chooses categories for System-2 Global Selection
(retrieval/dual.py). Prompts and reply models: prompts/categories.py. Items are numbered in the prompt
and mapped back to ids here; numbers out of range are ignored."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.memory.categories import Item, Placement, Proposal
from memgraph_neo4j.prompts import categories as prompt
from memgraph_neo4j.prompts.json_reply import parse_json_object

Reply = TypeVar("Reply", bound=BaseModel)


class _ChatAgent:
    def __init__(self, chat: ChatClient, max_retries: int = 2) -> None:
        self.chat, self.max_retries = chat, max_retries
        self.usage = Usage()
        self.calls = 0
        self._lock = threading.Lock()

    def ask(self, system: str, user: str, reply: type[Reply]) -> Reply:
        """The reply validated by its model, asked again up to max_retries times, then ValueError."""
        problem = ""
        for _ in range(self.max_retries + 1):
            result = self.chat.complete_json(system, user, reply)
            with self._lock:
                self.usage = self.usage + result.usage
                self.calls += 1
            try:
                return reply.model_validate(parse_json_object(result.text))
            except (ValueError, ValidationError) as exc:
                problem = str(exc).splitlines()[0]
        raise ValueError(f"{self.chat.model}: unusable reply after {self.max_retries + 1} attempts ({problem})")


def _pick(numbers: Sequence[int], items: Sequence[Item]) -> list[str]:
    return list(dict.fromkeys(items[n - 1].id for n in numbers if 1 <= n <= len(items)))


def _shown(items: Sequence[Item]) -> list[tuple[str, str | None]]:
    return [(i.label, i.detail) for i in items]


class ModelCategoriser(_ChatAgent):
    """memory.categories.Categoriser on a chat model."""

    def group(self, items: Sequence[Item], layer: int, min_children: int) -> list[Proposal]:
        reply = self.ask(prompt.GROUP_SYSTEM.format(min_children=min_children),
                         prompt.group_prompt(_shown(items), layer), prompt.GroupReply)
        return [Proposal(c.name, c.summary, tuple(_pick(c.members, items))) for c in reply.categories]

    def place(self, categories: Sequence[Item], items: Sequence[Item], layer: int,
              min_children: int) -> Placement:
        reply = self.ask(prompt.ASSIGN_SYSTEM.format(min_children=min_children),
                         prompt.assign_prompt(_shown(categories), _shown(items), layer), prompt.AssignReply)
        placement = Placement()
        for a in reply.assignments:
            if 1 <= a.item <= len(items):
                placement.assignments.setdefault(items[a.item - 1].id, []).extend(_pick(a.categories, categories))
        placement.proposals = [Proposal(c.name, c.summary, tuple(_pick(c.members, items)))
                               for c in reply.new_categories]
        placement.summaries = {categories[s.category - 1].id: s.summary for s in reply.summaries
                               if 1 <= s.category <= len(categories) and s.summary.strip()}
        return placement


class ModelSelector(_ChatAgent):
    """The step of Global Selection: which of these categories may hold the answer, and whether all do."""

    def select(self, question: str, categories: Sequence[Item]) -> tuple[list[str], bool]:
        reply = self.ask(prompt.SELECT_SYSTEM, prompt.select_prompt(question, _shown(categories)), prompt.SelectReply)
        chosen = _pick(reply.selected, categories)
        every = reply.all or (bool(categories) and len(chosen) == len(categories))
        return ([c.id for c in categories] if every else chosen), every


SelectFn = Callable[[str, Sequence[Item]], tuple[list[str], bool]]
