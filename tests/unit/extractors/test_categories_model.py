"""The chat-model side of the category hierarchy on langchain-core's fake chat model: numbers in the
replies map back to ids, numbers out of range are ignored, and "all relevant" is recognised."""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from memgraph_neo4j.extractors.categories import ModelCategoriser, ModelSelector
from memgraph_neo4j.llm.chat import LangChainChat
from memgraph_neo4j.memory.categories import CategoryConfig, CategoryHierarchy, Item, Proposal

ITEMS = [Item("e1", "Paris", "Place"), Item("e2", "Berlin", "Place"), Item("e3", "Ana", "Person")]


def _chat(*replies: str) -> LangChainChat:
    return LangChainChat(FakeListChatModel(responses=list(replies)))


def test_group_and_place_map_numbers_to_ids():
    model = ModelCategoriser(_chat(
        'Sure! ```json\n{"categories": [{"name": "Cities", "summary": "towns", "members": [1, 2, 9]}]}```',
        '{"assignments": [{"item": 1, "categories": [1]}, {"item": 7, "categories": [1]}],'
        ' "new_categories": [{"name": "People", "members": [2]}],'
        ' "summaries": [{"category": 1, "summary": "cities"}]}'))
    assert model.group(ITEMS, 1, 2) == [Proposal("Cities", "towns", ("e1", "e2"))]
    placement = model.place([Item("c1", "Cities", "towns")], [Item("e4", "Lyon"), Item("e5", "Bo")], 1, 2)
    assert placement.assignments == {"e4": ["c1"]}
    assert placement.proposals == [Proposal("People", "", ("e5",))]
    assert placement.summaries == {"c1": "cities"}
    assert model.calls == 2 and model.usage.tokens > 0


def test_selector_reads_all_and_a_full_selection_as_all():
    selector = ModelSelector(_chat('{"selected": [2]}', '{"selected": [], "all": true}', '{"selected": [1, 2, 3]}'))
    assert selector.select("q", ITEMS) == (["e2"], False)
    assert selector.select("q", ITEMS) == (["e1", "e2", "e3"], True)
    assert selector.select("q", ITEMS) == (["e1", "e2", "e3"], True)


def test_proposals_merge_by_name_and_need_min_children():
    hierarchy = CategoryHierarchy(None, None, CategoryConfig(min_children=2))
    merged = hierarchy._merge([Proposal("Cities", "towns", ("e1",)), Proposal(" cities ", "", ("e2", "e1")),
                               Proposal("People", "", ("e3", "made-up"))], {"e1", "e2", "e3"})
    assert merged == [Proposal("Cities", "towns", ("e1", "e2"))]
