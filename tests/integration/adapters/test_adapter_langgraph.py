"""The LangGraph store (memgraph_neo4j.adapters.langgraph.MemoryStore) against LangGraph itself and the real Neo4j.

LangGraph ships no conformance suite for stores (langgraph-checkpoint-conformance covers checkpointers only), so
the documented BaseStore contract is checked against LangGraph's own reference implementation: every
operation runs on `MemoryStore` and on `langgraph.store.memory.InMemoryStore`, and the two must agree (items,
searches with filters and pages, namespace listings with prefixes, suffixes, wildcards and depths, batches,
deletes, the async variants). Then what only this store does: semantic search through the engine's retrieval
with each result's passage metadata, and a small StateGraph agent that writes and recalls through it."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

pytest.importorskip("langgraph", reason="the [langgraph] extra: pip install 'memgraph-neo4j[langgraph]'")

from adapter_memory import drop_space, memory_options, new_space  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.runtime import Runtime  # noqa: E402
from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, Item, PutOp  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

from memgraph_neo4j.adapters.langchain import MemoryRetriever  # noqa: E402
from memgraph_neo4j.adapters.langgraph import MemorySearchItem, MemoryStore  # noqa: E402


@pytest.fixture
def spaces(store):
    names = [new_space("t_lg"), new_space("t_lg")]
    yield names
    for name in names:
        drop_space(store, name)


@pytest.fixture
def stores(store, minilm, spaces):
    """This store on two test spaces, and LangGraph's reference store."""
    ours = MemoryStore(spaces, graph_store=store, method="hybrid", **memory_options(minilm))
    assert isinstance(ours, BaseStore)
    yield ours, InMemoryStore()
    ours.close()


def plain(result):
    """What both stores must agree on: namespaces, keys and values (the reference resets created_at on update)."""
    if isinstance(result, Item):
        return result.namespace, result.key, result.value
    if isinstance(result, list):
        return [plain(r) for r in result]
    return result


def agree(stores, call, ordered: bool = True):
    ours, reference = (plain(call(s)) for s in stores)
    assert (ours if ordered else sorted(ours, key=repr)) == (reference if ordered else sorted(reference, key=repr))
    return ours


def test_items_searches_and_namespaces_agree_with_the_reference_store(stores, spaces):
    one, two = spaces
    namespaces = [(one, "a", "b", "c"), (one, "a", "b", "d", "e"), (one, "a", "b", "d", "i"), (one, "a", "b", "f"),
                  (one, "a", "c", "f"), (one, "b", "a", "f"), (two, "users", "123"), (two, "users", "456", "settings"),
                  (two,)]
    puts = [PutOp(ns, f"id_{i}", {"data": f"note number {i}", "n": i, "meta": {"tag": "even" if i % 2 else "odd"}})
            for i, ns in enumerate(namespaces)]
    for s in stores:
        assert s.batch(puts) == [None] * len(puts)  # one batch: one ingest per space

    agree(stores, lambda s: s.get((one, "a", "b", "f"), "id_3"))
    agree(stores, lambda s: s.get((one, "a", "b", "f"), "missing"))
    for options in ({"prefix": (one, "a", "b")}, {"suffix": ("f",)}, {"prefix": (one,), "suffix": ("f",)},
                    {"prefix": (one, "a", "b"), "max_depth": 4}, {"prefix": (one, "a", "b"), "limit": 2},
                    {"prefix": (one, "a", "b"), "offset": 2}, {"prefix": (one, "*", "f")},
                    {"suffix": ("*", "f")}, {"prefix": ("nonexistent",)}, {"prefix": (two, "users", "123")},
                    {"prefix": ("*", "users")}, {"max_depth": 2}, {}):
        agree(stores, lambda s: s.list_namespaces(**options))
    assert len(agree(stores, lambda s: s.list_namespaces())) == len(namespaces)

    for prefix, filter in (((one,), None), ((one, "a", "b"), None), ((one,), {"n": {"$gte": 3}}),
                           ((one,), {"data": "note number 4"}), ((one,), {"meta": {"tag": "even"}}),
                           ((one,), {"n": {"$gt": 1, "$lt": 4}}), ((one,), {"n": {"$ne": 0}}), ((two, "users"), None)):
        agree(stores, lambda s: s.search(prefix, filter=filter, limit=20), ordered=False)
    pages = [plain(stores[0].search((one,), limit=2, offset=offset)) for offset in (0, 2, 4, 6)]
    assert [len(p) for p in pages] == [2, 2, 2, 0]
    assert sorted(item for p in pages for item in p) == sorted(plain(stores[1].search((one,), limit=20)))
    # last: the reference's get of an unknown namespace lists that namespace afterwards (a defaultdict)
    agree(stores, lambda s: s.get((one, "a", "b"), "id_3"))  # a namespace is exact, not a prefix


def test_updates_deletes_and_batches_agree_with_the_reference_store(stores, spaces):
    one, _ = spaces
    ns = (one, "users", "ada")
    for s in stores:
        s.put(ns, "drink", {"text": "Ada likes coffee."})
    before = stores[0].get(ns, "drink")
    for s in stores:
        s.put(ns, "drink", {"text": "Ada likes green tea."})
    after = agree(stores, lambda s: s.get(ns, "drink"))
    assert after == (ns, "drink", {"text": "Ada likes green tea."})
    updated = stores[0].get(ns, "drink")
    assert updated.created_at == before.created_at and updated.updated_at > before.updated_at
    assert isinstance(updated.created_at, datetime)
    memory = stores[0].memory(one)
    assert [d.title for d in memory.documents()] == ["drink"]  # the old value's document was retracted
    assert [f.text for f in memory.facts()] == ["Ada Lovelace likes green tea"]
    docs = memory.documents()
    stores[0].put(ns, "drink", {"text": "Ada likes green tea."})  # the same value again changes nothing
    assert memory.documents() == docs

    # in one batch, reads see the store before the batch's writes, and the last write of a key wins
    batch = [GetOp(ns, "food"), PutOp(ns, "food", {"text": "Ada likes bread."}),
             PutOp(ns, "food", {"text": "Ada likes cake."}), GetOp(ns, "food")]
    agree(stores, lambda s: s.batch(batch))
    agree(stores, lambda s: s.get(ns, "food"))
    for s in stores:
        s.delete(ns, "food")
        s.delete(ns, "never-written")
    agree(stores, lambda s: s.get(ns, "food"))
    agree(stores, lambda s: s.search((one,)), ordered=False)
    assert [d.title for d in memory.documents()] == ["drink"]

    async def run(s):
        await s.aput((one, "async"), "k", {"text": "Bo hikes in the Alps."})
        got = await s.aget((one, "async"), "k")
        found = await s.asearch((one, "async"))
        listed = await s.alist_namespaces(prefix=(one,))
        await s.adelete((one, "async"), "k")
        return [got, found, listed, await s.aget((one, "async"), "k"), await s.alist_namespaces(prefix=(one,))]
    ours, reference = (plain(asyncio.run(run(s))) for s in stores)
    assert ours[:4] == reference[:4]
    # a namespace whose last item went is not listed (as LangGraph's PostgresStore; the reference keeps the
    # emptied key of its dict)
    assert ours[4] == [ns] and reference[4] == [(one, "async"), ns]


def test_bad_namespaces_are_refused_as_the_reference_refuses_them(stores, spaces):
    one, _ = spaces
    for bad in ((), ("",), (one, "dotted.label"), (one, "")):
        for s in stores:
            with pytest.raises(InvalidNamespaceError):
                s.put(bad, "k", {"text": "x"})
    ours = stores[0]
    # past the public methods too (langgraph.store.base.validate_op_namespace: a store that serialises namespaces
    # checks them itself; the in-memory one need not)
    with pytest.raises(InvalidNamespaceError, match="without '.'"):
        ours.batch([GetOp((one, "a.b"), "k")])
    with pytest.raises(InvalidNamespaceError, match="its first label names the memory space"):
        ours.put(("not a space!",), "k", {"text": "x"})
    with pytest.raises(InvalidNamespaceError, match=f"this store uses the spaces {one}, "):
        ours.get(("t_elsewhere", "a"), "k")
    with pytest.raises(NotImplementedError, match="TTL"):
        ours.put((one,), "k", {"text": "x"}, ttl=5)
    ours.put((one, "f"), "k", {"n": 1})
    with pytest.raises(ValueError, match="filter operator '\\$in'"):
        ours.search((one,), filter={"n": {"$in": [1]}})
    assert ours.list_namespaces(prefix=("not a space!",)) == []


def test_semantic_search_runs_the_engine_and_returns_passage_metadata(stores, spaces, minilm):
    ours, _ = stores
    one, _ = spaces
    ns = (one, "users", "ada")
    ours.batch([PutOp(ns, "drink", {"text": "Ada likes green tea."}),
                PutOp(ns, "birth", {"text": "Isaac Newton was born in Woolsthorpe."}),
                PutOp(ns, "secret", {"text": "Ada likes green tea with honey."}, index=False),
                PutOp((one, "other"), "acme", {"text": "Our company Acme is based in Paris."})])
    found = ours.search(ns, query="What does Ada like to drink?", limit=2)
    assert [item.key for item in found][0] == "drink" and "secret" not in [item.key for item in found]
    top = found[0]
    assert isinstance(top, MemorySearchItem) and top.score > 0 and top.value == {"text": "Ada likes green tea."}
    meta = top.metadata
    assert (meta["title"], meta["source"], meta["method"], meta["space"]) == ("drink", "langgraph:users.ada.",
                                                                               "hybrid", one)
    assert [(f["text"], f["state"]) for f in meta["facts"]] == [("Ada Lovelace likes green tea", "active")]
    assert top.dict()["metadata"] == meta
    # what the agent stored is memory like any other: the LangChain retriever finds the same passage
    [doc] = MemoryRetriever(memory=ours.memory(one), method="hybrid", top_k=1).invoke("What does Ada like?")
    assert doc.id == meta["passage_id"] and doc.metadata["doc_id"] == meta["doc_id"]
    assert ours.get(ns, "secret").value["text"].endswith("honey.")  # not searched by query, still stored
    assert "secret" in [i.key for i in ours.search(ns)]
    assert [i.key for i in ours.search((one,), query="Where is Acme based?", filter={"text": {"$ne": "x"}},
                                       limit=1)] == ["acme"]
    assert ours.search(ns, query="Where is Acme based?", filter={"text": "no such value"}) == []
    # as_of, as in every adapter: the facts valid then (hybrid methods)
    with MemoryStore(spaces, graph_store=ours.memory(one).store, method="hybrid", as_of="2024-03-01",
                     **memory_options(minilm)) as then:
        [item] = then.search(ns, query="What does Ada like to drink?", limit=1)
        assert item.key == "drink" and item.metadata["as_of"] == "2024-03-01"
    with MemoryStore(spaces, graph_store=ours.memory(one).store, as_of="2024-03-01", **memory_options(minilm)) as bad:
        with pytest.raises(ValueError, match="as_of needs a hybrid or dual method"):
            bad.search(ns, query="What does Ada like to drink?")


def test_a_state_graph_agent_writes_and_recalls_through_the_store(store, minilm, spaces):
    one, _ = spaces
    recalled: list[MemorySearchItem] = []

    def replies():  # the scripted model: what it says depends on what the store gave the graph
        yield AIMessage("Noted.")
        top = recalled[0]
        yield AIMessage(f"You like {top.value['text'].split('likes ')[1].rstrip('.')} "
                        f"[{top.metadata['citation']}, passage {top.metadata['passage_id']}].")

    model = GenericFakeChatModel(messages=replies())

    def remember(state: MessagesState, runtime: Runtime) -> dict:
        said = state["messages"][-1].content
        if said.startswith("Remember:"):
            runtime.store.put((one, "users", "ada"), "preference", {"text": said.removeprefix("Remember:").strip()})
        return {}

    def answer(state: MessagesState, runtime: Runtime) -> dict:
        question = state["messages"][-1].content
        recalled[:] = runtime.store.search((one, "users", "ada"), query=question, limit=3)
        notes = "\n".join(f"- {item.value['text']} ({item.metadata['passage_id']})" for item in recalled)
        return {"messages": [model.invoke([HumanMessage(f"Memories:\n{notes}\n\n{question}")])]}

    graph = StateGraph(MessagesState)
    graph.add_node("remember", remember)
    graph.add_node("answer", answer)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", "answer")
    graph.add_edge("answer", END)
    with MemoryStore([one], graph_store=store, method="hybrid", **memory_options(minilm)) as memory_store:
        app = graph.compile(store=memory_store)
        app.invoke({"messages": [HumanMessage("Remember: Ada likes green tea.")]})
        # a later conversation (no shared state) recalls it from the store
        reply = app.invoke({"messages": [HumanMessage("What do I like to drink?")]})["messages"][-1].content
        item = memory_store.get((one, "users", "ada"), "preference")
    assert item.value == {"text": "Ada likes green tea."}
    passage = recalled[0].metadata["passage_id"]
    assert recalled[0].key == "preference" and reply == f"You like green tea [preference, passage {passage}]."
