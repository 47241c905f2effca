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


def reply(entities: list[tuple[str, str]], facts: list[tuple[str, str, str, str, str]]) -> str:
    return json.dumps({
        "entities": [{"name": n, "type": t} for n, t in entities],
        "facts": [{"head": h, "relation": r, "tail": t, "head_type": ht, "tail_type": tt} for h, r, t, ht, tt in facts],
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
