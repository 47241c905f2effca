"""Chat turns with an LLM extractor (langchain-core and OpenAI-compatible paths), with a scripted model and
the real memory: the prompt of a conversation message names its speaker, addressee and time; "I" and "you"
in the reply are the speaker and the addressee (never an entity "I"), valid from the message's time;
interjections are no entities; and a document's prompt is byte for byte what it was before chat turns."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field
from test_guided_extraction import reply  # the scripted extraction reply's JSON
from test_ingest_exit_codes import stub  # noqa: F401 - the OpenAI-compatible stub server fixture

from memgraph_neo4j.api import MemoryGraph, make_extractor
from memgraph_neo4j.extractors.llm import LLMExtractor
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.llm import OpenAIChat
from memgraph_neo4j.memory.ontology import Ontology

GOLDEN = Path(__file__).parent.parent / "fixtures" / "llm_document_prompts.json"

# a fixed ontology, so the golden prompts do not follow edits of ontology.yaml
ONTOLOGY = Ontology.model_validate({
    "version": "chat-test", "promotion": {"threshold": 1},
    "entity_types": [{"name": "Person", "description": "A human being."},
                     {"name": "Place", "description": "A city, country or other location."},
                     {"name": "Organization", "description": "A company, university or other institution."}],
    "relations": [{"name": "lives_in", "description": "Where a person lives.", "domain": ["Person"],
                   "range": ["Place"], "functional": True, "temporal": True},
                  {"name": "works_for", "description": "A person's employer.", "domain": ["Person"],
                   "range": ["Organization"], "temporal": True}],
})


class RecordingChat(BaseChatModel):
    """Answers by marker word in the user message; keeps every (system, user) pair it was sent."""

    replies: dict[str, str]
    calls: list[tuple[str, str]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recording"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kw: Any) -> ChatResult:
        system, user = str(messages[0].content), str(messages[-1].content)
        self.calls.append((system, user))
        text = next(v for k, v in self.replies.items() if k in user)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def memory_with(store, space, chat: BaseChatModel) -> MemoryGraph:
    extractor = make_extractor("langchain", ONTOLOGY, chat_model=chat, concurrency=1)
    return MemoryGraph(space=space, store=store, ontology=ONTOLOGY, embedder=None, extractor=extractor,
                       adjudication=False)


# -- documents: the prompt is unchanged ---------------------------------------------------------------

DOCS = [Document(title="Acme staff", text="FIRST Ada Lovelace works for Acme.\n\n## Home\n\nShe lives in London."),
        Document(title="Acme again", text="SECOND In 1999 Ada Lovelace moved to Paris; I met her at Acme.")]
DOC_REPLIES = {
    "FIRST": reply([("Ada Lovelace", "Person"), ("Acme", "Organization")],
                   [("Ada Lovelace", "works_for", "Acme", "Person", "Organization")]),
    "SECOND": reply([("Ada Lovelace", "Person"), ("Paris", "Place")],
                    [("Ada Lovelace", "lives_in", "Paris", "Person", "Place")]),
}


def document_prompts(store, space) -> list[list[str]]:
    chat = RecordingChat(replies=DOC_REPLIES)
    report = memory_with(store, space, chat).ingest(DOCS, batch_size=1, progress=False)  # promotion in between
    assert report.extracted == 2 and report.failed == 0
    return [list(call) for call in chat.calls]


def test_a_document_prompt_is_byte_identical_to_before_chat_turns(store, space):
    prompts = document_prompts(store, space)
    # (system, user) of both chunks as main sent them before chat turns (4fa9083); the second one with the
    # schema and the entities the memory learned from the first
    assert prompts == json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert "Person -works_for-> Organization" in prompts[1][1] and "Ada Lovelace (Person" in prompts[1][1]


# -- conversation messages ----------------------------------------------------------------------------

MOVED = datetime(2024, 1, 10, 9, 30, tzinfo=UTC)
CHEERED = datetime(2024, 1, 10, 10, 5, tzinfo=UTC)
CHAT = Conversation("ana-bo", title="Ana and Bo", sessions=[
    Session("1", [Message("Ana", "Big news: I moved to Porto!", time=MOVED),
                  Message("Bo", "Congrats! Glad you got the job at Acme.", time=CHEERED)],
            time=datetime(2024, 1, 10, 9, tzinfo=UTC)),
])
# a model that ignores the chat rules: "I", "you" and interjections as entities
CHAT_REPLIES = {
    "I moved to Porto": reply([("I", "Person"), ("Porto", "Place")], [("I", "lives_in", "Porto", "Person", "Place")]),
    "Bo: Congrats!": reply([("Congrats", "Thing"), ("Glad", "Thing"), ("you", "Person"), ("Acme", "Organization")],
                           [("you", "works_for", "Acme", "Person", "Organization"),
                            ("Glad", "related_to", "Acme", "Thing", "Organization")]),
}


def chat_route(calls: list[tuple[str, str]]):
    """The OpenAI-compatible stub's model: the same replies, keeping every (system, user) pair."""
    def route(body: dict) -> str:
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        calls.append((system, user))
        return next(v for k, v in CHAT_REPLIES.items() if k in user)
    return route


@pytest.fixture(params=["langchain", "openai"])
def chat_memory(request, store, space):
    """The conversation ingested through a scripted langchain-core model or an OpenAI-compatible stub over
    HTTP, and the (system, user) pairs the model received, in message order."""
    if request.param == "langchain":
        chat = RecordingChat(replies=CHAT_REPLIES)
        memory, calls = memory_with(store, space, chat), chat.calls
    else:
        server, calls = request.getfixturevalue("stub"), []
        server.mode, server.route = "route", chat_route(calls)
        client = OpenAIChat("stub-chat", base_url=f"http://127.0.0.1:{server.server_address[1]}/v1", api_key="sk-x")
        memory = MemoryGraph(space=space, store=store, ontology=ONTOLOGY, embedder=None, adjudication=False,
                             extractor=LLMExtractor(client, ONTOLOGY, concurrency=1, backoff=0))
    report = memory.ingest_conversations([CHAT])
    assert (report.passages_new, report.extracted, report.failed) == (2, 2, 0)
    return memory, calls


def test_a_message_prompt_names_speaker_addressee_and_time(chat_memory):
    _, calls = chat_memory
    (system, ana), (system_too, bo) = sorted(calls, key=lambda c: "Bo: Congrats" in c[1])
    assert "Speaker: Ana\nAddressee: Bo\nMessage time: 10 January 2024, 09:30 UTC" in ana
    assert "Speaker: Bo\nAddressee: Ana\nMessage time: 10 January 2024, 10:05 UTC" in bo
    assert 'Write "I", "me", "my" as Ana and "you", "your" as Bo' in ana
    assert "No entities of interjections" in bo and "null for a current state or an event it does not date" in bo
    assert ana.endswith("Passage:\nAna: Big news: I moved to Porto!")
    # the system message is the documents' own (one cached prefix for every chunk)
    assert system == system_too == json.loads(GOLDEN.read_text(encoding="utf-8"))[0][0]


def test_i_and_you_are_the_speakers_entities_valid_from_the_message(chat_memory, test_store, space):
    memory, _ = chat_memory
    facts = [{k: r[k] for k in ("relation", "head", "tail", "head_speaks", "said_by", "prompt_version")}
             for r in test_store.read("conversation/speaker_facts", space=space)]
    # "I" of Ana's message and "you" of Bo's are the node Ana's episodes are SPOKEN_BY; nothing of "Glad"
    assert facts == [
        {"relation": "lives_in", "head": "Ana", "tail": "Porto", "head_speaks": ["Ana"], "said_by": ["Ana"],
         "prompt_version": "ext-v2+chat-v1"},
        {"relation": "works_for", "head": "Ana", "tail": "Acme", "head_speaks": ["Ana"], "said_by": ["Bo"],
         "prompt_version": "ext-v2+chat-v1"},
    ]
    assert [(f.head, f.tail, f.valid_at) for f in memory.facts(relation="lives_in")] == [("Ana", "Porto", MOVED)]
    assert [(f.head, f.tail, f.valid_at) for f in memory.facts(relation="works_for")] == [("Ana", "Acme", CHEERED)]
    assert memory.facts(as_of="2024-01-09", relation="lives_in") == []  # not before it was said


def test_pronouns_and_interjections_are_no_entities(chat_memory):
    memory, _ = chat_memory
    found = memory.entity_ids(["I", "you", "Congrats", "Glad"])
    assert found == dict.fromkeys(found)  # none is an entity
    assert memory.entity_ids(["Ana", "Porto", "Acme"])["Acme"] is not None
