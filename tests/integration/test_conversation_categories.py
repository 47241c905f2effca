"""The category hierarchy with a scripted model: built bottom-up, updated incrementally (only the
affected branch changes), System-2 Global Selection with its early stop, and search(mode="dual")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from test_conversation import CHAT, Script

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.contracts import Usage
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session
from memgraph_neo4j.llm.chat import ChatResult
from memgraph_neo4j.memory.categories import CategoryConfig, category_id
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.categories import CategoryRepository
from memgraph_neo4j.retrieval import SEARCH_METHODS
from memgraph_neo4j.retrieval.dual import GlobalSelection

LAYER1 = {"People": ["Ana", "Bo"], "Places": ["Paris", "Berlin", "Alps", "Lyon"], "Cities": ["Paris", "Berlin", "Lyon"],
          "Companies": ["Acme", "Globex"]}
LAYER2 = {"World": ["Places", "Cities"], "Economy": ["Companies"]}
SUMMARY = {"People": "who talks", "Places": "places", "Cities": "cities", "Companies": "firms",
           "World": "geography", "Economy": "business"}
# question -> what is relevant at each step, and whether all shown is
SELECT = {"Where is Acme headquartered?": [({"World", "Companies"}, False), (set(), True)],
          "Who talks?": [({"People"}, False)],
          "Tell me everything": [(set(), True)]}

MORE = Conversation("acme-chat", title="Ana and Bo", sessions=[
    Session("3", [Message("Ana", "Our rival Globex is in Lyon.")], time=datetime(2024, 9, 1, 9, tzinfo=UTC))])
SCRIPT_MORE = {"Lyon": [("Globex", "headquartered_in", "Lyon", "Organization", "Place")]}


class Categories:
    """A scripted chat client: groups, places and selects by the tables above; records every call."""

    provider, model, price = "scripted", "scripted-categories", None

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def complete_json(self, system: str, user: str, schema) -> ChatResult:
        self.calls.append((schema.__name__, user))
        return ChatResult(json.dumps(getattr(self, schema.__name__)(user)), Usage(prompt_tokens=10), self.model)

    @staticmethod
    def _items(block: str) -> dict[str, int]:
        return {m.group(2): int(m.group(1)) for m in re.finditer(r"^\[(\d+)\] ([^:\n]+)", block, re.M)}

    def GroupReply(self, user: str) -> dict:
        items = self._items(user)
        table = LAYER1 if user.startswith("Entities") else LAYER2
        return {"categories": [{"name": name, "summary": SUMMARY[name],
                                "members": [items[m] for m in members if m in items]}
                               for name, members in table.items()]}

    def AssignReply(self, user: str) -> dict:
        existing, new = user.split("\n\nNew ")
        cats, items = self._items(existing), self._items(new)
        table = LAYER1 if new.startswith("entities") else LAYER2
        assignments, fresh = [], []
        for name, members in table.items():
            if name in cats:
                assignments += [{"item": items[m], "categories": [cats[name]]} for m in members if m in items]
            elif any(m in items for m in members):
                fresh.append({"name": name, "summary": SUMMARY[name],
                              "members": [items[m] for m in members if m in items]})
        summaries = [{"category": cats["Places"], "summary": "places, now with Lyon"}] if "Places" in cats else []
        return {"assignments": assignments, "new_categories": fresh, "summaries": summaries}

    def SelectReply(self, user: str) -> dict:
        question = re.search(r"^Question: (.*)$", user, re.M).group(1)
        items = self._items(user.split("Categories:\n")[1])
        wanted, every = SELECT[question][0 if {"World", "People"} & set(items) else 1]  # roots, or below
        return {"selected": [n for name, n in items.items() if name in wanted], "all": every}


@pytest.fixture
def memory(store, space, minilm):
    base = load_ontology()
    promotion = base.promotion.model_copy(update={"threshold": 1, "percentile": None})
    ontology = base.model_copy(update={"promotion": promotion})
    memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=minilm, extractor=Script())
    memory.ingest_conversations([CHAT])
    return memory


def _tree(memory) -> dict[str, tuple]:
    names = {}
    for c in memory.categories():
        names[c.id] = c.name
    entity_names = {e: n for n, e in memory.entity_ids(["Ana", "Bo", "Acme", "Paris", "Berlin", "Alps", "Globex",
                                                        "Lyon"]).items() if e}
    return {c.name: (c.layer, c.revision, c.summary, sorted(names.get(m) or entity_names[m] for m in c.members),
                     sorted(names[p] for p in c.parents)) for c in memory.categories()}


def test_hierarchy_is_built_bottom_up_then_updated_only_where_entities_arrive(memory):
    chat = Categories()
    config = CategoryConfig(min_children=2, top_size=2)
    built = memory.categorise(chat=chat, config=config)
    assert (built.layers, built.categories_new, built.revision) == (2, 4, 1)
    # Companies holds Acme alone (Globex is not known yet): under min_children, so Acme waits; Economy
    # would hold one category: gone too; People is a root of layer 1 (no layer-2 category took it)
    assert (built.entities_placed, built.entities_left) == (5, 1)
    before = _tree(memory)
    assert before == {
        "World": (2, 1, "geography", ["Cities", "Places"], []),
        "Cities": (1, 1, "cities", ["Berlin", "Paris"], ["World"]),
        "People": (1, 1, "who talks", ["Ana", "Bo"], []),
        "Places": (1, 1, "places", ["Alps", "Berlin", "Paris"], ["World"]),
    }
    assert [kind for kind, _ in chat.calls] == ["GroupReply", "GroupReply"]

    # Globex and Lyon arrive: only they and the waiting Acme are shown, with the layer-1 categories
    import test_conversation

    saved = dict(test_conversation.SCRIPT)
    test_conversation.SCRIPT.update(SCRIPT_MORE)
    try:
        memory.ingest_conversations([MORE])
    finally:
        test_conversation.SCRIPT.clear()
        test_conversation.SCRIPT.update(saved)
    chat.calls.clear()
    updated = memory.categorise(chat=chat, config=config)
    assert [kind for kind, _ in chat.calls] == ["AssignReply", "AssignReply"]
    shown = chat.calls[0][1].split("New entities:\n")[1]
    assert sorted(Categories._items(shown)) == ["Acme", "Globex", "Lyon"]
    assert (updated.revision, updated.categories_new, updated.categories_touched) == (2, 1, 2)
    assert (updated.entities_placed, updated.entities_left) == (3, 0)
    after = _tree(memory)
    assert after["Places"] == (1, 2, "places, now with Lyon", ["Alps", "Berlin", "Lyon", "Paris"], ["World"])
    assert after["Cities"] == (1, 2, "cities", ["Berlin", "Lyon", "Paris"], ["World"])
    assert after["Companies"] == (1, 2, "firms", ["Acme", "Globex"], [])  # new; Economy (one member) is not
    # outside the affected branch nothing changed, not even the revision
    assert after["People"] == before["People"] and after["World"] == before["World"]
    assert set(after) == {"World", "Cities", "People", "Places", "Companies"}
    chat.calls.clear()
    assert memory.categorise(chat=chat, config=config).categories_new == 0 and chat.calls == []  # nothing new


def test_global_selection_walks_down_and_stops_when_all_are_relevant(memory):
    chat = Categories()
    memory.categorise(chat=chat, config=CategoryConfig(min_children=2, top_size=2))
    repo = CategoryRepository(memory.store, memory.space)
    names = {c.id: c.name for c in memory.categories()}

    chat.calls.clear()
    where = GlobalSelection(repo, chat).select("Where is Acme headquartered?")
    # roots: World (layer 2), People (layer 1); World is opened; its children Cities and Places are all
    # relevant: early stop, everything under them is taken without asking further
    assert [sorted(names[c] for c in step) for step in where.steps] == [["World"], ["Cities", "Places"]]
    assert where.early_stop and where.calls == 2
    assert sorted(names[c] for c in where.categories) == ["Cities", "Places"]
    assert sorted(n for _, n in where.entities) == ["Alps", "Berlin", "Paris"]

    who = GlobalSelection(repo, chat).select("Who talks?")
    assert not who.early_stop and who.calls == 1  # People is a layer-1 category: nothing to open
    assert sorted(n for _, n in who.entities) == ["Ana", "Bo"]

    every = GlobalSelection(repo, chat).select("Tell me everything")
    assert every.early_stop and every.calls == 1  # all roots relevant: one call for the whole memory
    assert sorted(n for _, n in every.entities) == ["Alps", "Ana", "Berlin", "Bo", "Paris"]
    assert category_id(2, "World") in every.categories


def test_dual_search_fuses_system1_and_system2(memory):
    plain = memory.search("Where is Acme headquartered?", mode="dual", top_k=3)  # no hierarchy: System-1 only
    assert plain.method == "dual" and plain.passages and "global_selection" not in plain.timings_ms
    chat = Categories()
    memory.categorise(chat=chat, config=CategoryConfig(min_children=2, top_size=2))
    result = memory.search("Where is Acme headquartered?", mode="dual", top_k=3, chat=chat)
    assert result.method == "dual" and "global_selection" in result.timings_ms
    assert any("Berlin" in (p.text or "") for p in result.passages)
    assert {"Berlin", "Paris"} <= {e.name for e in result.entities}
    assert "Acme headquartered in Berlin" in [f.text for f in result.facts]
    then = memory.search("Where is Acme headquartered?", method="dual", top_k=3, chat=chat, as_of="2024-03-01")
    assert all("Berlin" not in (p.text or "") for p in then.passages)  # said later
    with pytest.raises(ValueError, match="mode"):
        memory.search("x", mode="triple")


def test_what_dual_needs_and_the_methods_are_said_in_the_words_of_each_surface(memory, space, neo4j_connection,
                                                                             monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    memory.categorise(chat=Categories(), config=CategoryConfig(min_children=2, top_size=2))
    # a hierarchy to walk and no chat model: the API names its argument, never an internal one
    with pytest.raises(ValueError, match=r"^the dual method needs a chat model to walk the category hierarchy: "
                                         r"pass chat=\.\.\. to search\(\), or set OPENAI_API_KEY"):
        memory.search("Where is Acme headquartered?", mode="dual")

    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env |= {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
            "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database}

    def query(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "query", "Where is Acme?", "--space",
                               space, *args], capture_output=True, text=True, env=env, timeout=600)

    dual = query("--mode", "dual")
    assert dual.returncode == 1 and "select_fn" not in dual.stderr and "Traceback" not in dual.stderr
    assert dual.stderr.startswith("error: the dual method needs a chat model to walk the category hierarchy: set "
                                  "OPENAI_API_KEY (or OPENAI_BASE_URL")
    assert "--method hybrid" in dual.stderr
    nope = query("--method", "nope")
    assert nope.returncode == 1
    listed = nope.stderr.split("choose one of ", 1)[1].strip()
    assert listed.split(", ") == list(SEARCH_METHODS) and "dual" in listed
