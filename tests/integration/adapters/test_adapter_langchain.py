"""The LangChain adapter (memgraph_neo4j.adapters.langchain) against langchain-core itself and the real Neo4j:
the retriever's Documents and their metadata, as_of, and an agent loop in which langchain-core's fake chat
model calls the memory's tools and answers citing what the retriever returned."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_core", reason="the [langchain] extra: pip install 'memgraph-neo4j[langchain]'")

from adapter_memory import DOCS  # noqa: E402
from langchain_core.documents import Document  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from langchain_core.tools import BaseTool  # noqa: E402
from langchain_core.utils.function_calling import convert_to_openai_tool  # noqa: E402

from memgraph_neo4j.adapters.langchain import MemoryRetriever, memory_tools  # noqa: E402

NEWTON = "Where was Isaac Newton born?"
METADATA = {"passage_id", "doc_id", "document", "source", "title", "page", "page_end", "heading", "citation", "score",
            "method", "space", "as_of", "facts"}


def test_the_retriever_returns_the_search_as_documents_with_sources_and_facts(known):
    retriever = MemoryRetriever(memory=known, top_k=3)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke(NEWTON)
    result = known.search(NEWTON, top_k=3)
    assert all(isinstance(d, Document) for d in docs)
    assert [(d.id, d.page_content, d.metadata["score"]) for d in docs] == [(h.id, h.text, h.score)
                                                                           for h in result.passages]
    sources = known.passage_sources([d.id for d in docs])
    for doc in docs:
        assert set(doc.metadata) == METADATA
        meta, source = doc.metadata, sources[doc.id]
        assert (meta["passage_id"], meta["doc_id"], meta["document"], meta["source"], meta["method"]) == (
            doc.id, source.doc_id, source.doc_title, source.source, "memgraphrag")
        assert meta["citation"] == meta["title"] == source.title
    by_title = {d.metadata["title"]: d.metadata for d in docs}
    [born] = by_title["Newton B"]["facts"]
    assert (born["text"], born["state"], born["relation"], born["head"], born["tail"]) == (
        "Isaac Newton born in Cambridge", "active", "born_in", "Isaac Newton", "Cambridge")
    [conflict] = born["conflicts"]
    assert (conflict["type"], conflict["status"], conflict["proposed"], conflict["applied"]) == (
        "mutual_exclusion", "needs_review", None, False)
    assert [(o["text"], o["state"]) for o in conflict["facts"]] == [("Isaac Newton born in Woolsthorpe", "active")]
    assert known.provenance(born["id"]).conflicts[0]["id"] == conflict["id"]  # the conflict the provenance lists
    assert by_title["Ada"]["facts"] and all(not f["conflicts"] for f in by_title["Ada"]["facts"])


def test_as_of_is_a_retriever_argument_and_a_per_call_one(known):
    question = "Where is Acme headquartered?"
    then = MemoryRetriever(memory=known, method="hybrid", top_k=1, as_of="2024-03-01").invoke(question)
    assert [d.page_content for d in then] == ["[09:00 on 10 January 2024] Ana: Our company Acme is based in Paris."]
    assert then[0].metadata["as_of"] == "2024-03-01" and then[0].metadata["citation"] == "Ana, 2024-01-10 09:00"
    later = MemoryRetriever(memory=known, method="hybrid", top_k=2).invoke(question, as_of="2024-07-01")
    assert any("Berlin" in d.page_content for d in later) and later[0].metadata["as_of"] == "2024-07-01"
    with pytest.raises(ValueError, match="as_of needs a hybrid or dual method"):
        MemoryRetriever(memory=known, as_of="2024-03-01").invoke(question)
    with pytest.raises(ValueError, match="facts must be"):
        MemoryRetriever(memory=known, facts=-1).invoke(question)


def run_agent(model: GenericFakeChatModel, tools: list[BaseTool], question: str, messages: list | None = None) -> list:
    """The agent loop: the model answers or calls tools; each call's ToolMessage goes back to it. `messages`:
    the transcript to fill (the scripted model reads the tool results from it)."""
    by_name = {t.name: t for t in tools}
    messages = [] if messages is None else messages
    messages.append(HumanMessage(question))
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        messages.extend(by_name[call["name"]].invoke(call) for call in reply.tool_calls)


def test_the_tools_have_the_schemas_a_model_is_given(known):
    tools = memory_tools(known)
    schemas = {t.name: convert_to_openai_tool(t)["function"] for t in tools}
    assert set(schemas) == {"search_memory", "write_memory", "get_provenance", "list_conflicts"}
    assert schemas["search_memory"]["parameters"]["required"] == ["query"]
    assert {"query", "top_k", "as_of"} == set(schemas["search_memory"]["parameters"]["properties"])
    assert {"text", "turns", "title"} == set(schemas["write_memory"]["parameters"]["properties"])
    assert schemas["get_provenance"]["parameters"]["required"] == ["fact_id"]
    assert "needs_review" in str(schemas["list_conflicts"]["parameters"]["properties"]["status"])


def test_an_agent_searches_follows_a_conflict_and_cites_the_retrieved_passage(known):
    messages: list = []

    def replies():  # what a model would say, read from the tool results as they come back
        yield AIMessage("", tool_calls=[{"name": "search_memory", "args": {"query": NEWTON, "top_k": 3},
                                         "id": "search"}])
        searched = messages[-1]
        top = searched.artifact[0]
        disputed = next(f for f in top.metadata["facts"] if f["conflicts"])
        yield AIMessage("", tool_calls=[
            {"name": "get_provenance", "args": {"fact_id": disputed["id"][:8]}, "id": "provenance"},
            {"name": "list_conflicts", "args": {"status": "needs_review"}, "id": "conflicts"}])
        other = disputed["conflicts"][0]["facts"][0]["text"]
        yield AIMessage(f"{disputed['text']} [{top.metadata['citation']}, passage {top.id}], but the memory also "
                        f"holds {other!r}: the conflict waits for review.")

    run_agent(GenericFakeChatModel(messages=replies()), memory_tools(known), NEWTON, messages)
    search, provenance, conflicts = (m for m in messages if isinstance(m, ToolMessage))
    expected = MemoryRetriever(memory=known, top_k=3).invoke(NEWTON)  # what the retriever returns for it
    assert [d.id for d in search.artifact] == [d.id for d in expected]
    assert [d.metadata for d in search.artifact] == [d.metadata for d in expected]
    top = expected[0]
    assert top.id in search.content and top.metadata["citation"] in search.content
    answer = messages[-1].content
    assert f"[{top.metadata['citation']}, passage {top.id}]" in answer
    assert any(f["text"] in answer for f in top.metadata["facts"])
    assert provenance.status == "success" and top.id in provenance.content  # the fact's evidence is that passage
    assert provenance.artifact["evidence"][0]["passage_id"] == top.id
    assert "Isaac Newton born in Woolsthorpe" in conflicts.content and "Isaac Newton born in Cambridge" in \
        conflicts.content
    assert {c["status"] for c in conflicts.artifact} == {"needs_review"}


def test_an_agent_writes_text_and_turns_then_recalls_them(blank):
    tools = memory_tools(blank, method="hybrid")

    def replies():
        yield AIMessage("", tool_calls=[
            {"name": "write_memory", "args": {"text": "Ada likes green tea.", "title": "Tea"}, "id": "w1"},
            {"name": "write_memory", "args": {"turns": [
                {"speaker": "user", "text": "My sister Grace Hopper lives in Arlington.", "time": "2024-05-01"}],
                "title": "family"}, "id": "w2"},
            {"name": "write_memory", "args": {"text": "x", "turns": [{"speaker": "user", "text": "y"}]},
             "id": "both"},
            {"name": "get_provenance", "args": {"fact_id": "ffffffff"}, "id": "unknown"}])
        yield AIMessage("", tool_calls=[
            {"name": "search_memory", "args": {"query": "Where does Grace Hopper live?"}, "id": "s"},
            {"name": "search_memory", "args": {"query": "Where does Grace Hopper live?", "as_of": "2024-04-01"},
             "id": "before"}])
        yield AIMessage("done")

    messages = run_agent(GenericFakeChatModel(messages=replies()), tools, "Remember this.")
    tea, family, both, unknown, found, before = (m for m in messages if isinstance(m, ToolMessage))
    # as of April, nothing about Grace had been said yet (the message is of May)
    assert before.artifact and all(d.metadata["as_of"] == "2024-04-01" for d in before.artifact)
    assert "Arlington" not in before.content
    assert tea.artifact["title"] == "Tea" and tea.artifact["passages_new"] == 1 and tea.artifact["facts"] == 1
    assert [d.title for d in blank.documents() if d.source == "langchain"] == ["Tea"]
    assert family.artifact["title"] == "family" and family.artifact["passages_new"] == 1
    assert blank.facts(relation="lives_in")[0].tail == "Arlington"
    assert both.status == "error" and "give text or turns, not both" in both.content
    assert unknown.status == "error" and "search_memory and list_conflicts return fact ids" in unknown.content
    assert "Grace Hopper lives in Arlington" in found.content
    assert found.artifact[0].metadata["citation"].startswith("user, 2024-05-01")


def test_a_resolved_conflict_comes_with_its_verdicts(blank):
    blank.ingest(DOCS, progress=False)
    [conflict] = blank.conflicts.list("needs_review")
    keep = conflict.fact_ids[conflict.facts.index("Isaac Newton born in Woolsthorpe")]
    blank.conflicts.accept(conflict.id, keep)
    docs = MemoryRetriever(memory=blank, method="bm25", top_k=3).invoke("Isaac Newton born Cambridge")
    cambridge = next(d for d in docs if d.metadata["title"] == "Newton B")
    [fact] = cambridge.metadata["facts"]
    assert (fact["text"], fact["state"]) == ("Isaac Newton born in Cambridge", "discarded")
    [verdict] = fact["conflicts"]
    assert (verdict["id"], verdict["status"], verdict["proposed"], verdict["applied"]) == (
        conflict.id, "resolved", "discard", True)
    assert [(o["id"], o["text"], o["state"], o["proposed"], o["applied"]) for o in verdict["facts"]] == [
        (keep, "Isaac Newton born in Woolsthorpe", "active", "keep", True)]
    assert "[discarded]" in cambridge_context(blank) and "resolved): discard (applied)" in cambridge_context(blank)


def cambridge_context(memory) -> str:
    [searched] = [t for t in memory_tools(memory, method="bm25") if t.name == "search_memory"]
    return searched.invoke({"query": "Isaac Newton born Cambridge", "top_k": 1})


def test_an_untitled_text_keeps_the_facts_of_its_first_line(store, minilm):
    """The tool gives a text no title unless asked, as MCP's write_memory and the API's ingest: with the offline
    extractor, a first line as title was read as one name wherever the text says it, and that line's facts were
    lost (0 facts from this note)."""
    from adapter_memory import drop_space, new_space

    from memgraph_neo4j.api import MemoryGraph

    spaces = new_space(), new_space()
    try:
        by_tool, by_api = (MemoryGraph(space=s, store=store, embedder=minilm) for s in spaces)  # offline extractor
        note = "Grace Hopper was born in New York in 1906. She worked at Harvard University."
        tools = {t.name: t for t in memory_tools(by_tool)}
        written = tools["write_memory"].invoke({"type": "tool_call", "name": "write_memory", "args": {"text": note},
                                               "id": "n"})
        expected = by_api.ingest(note, progress=False)
        assert written.artifact["title"] == "" and written.artifact["facts"] == expected.facts >= 2
        assert any(f.head == "Grace Hopper" and f.tail == "New York" for f in by_tool.facts())
    finally:
        for space in spaces:
            drop_space(store, space)
