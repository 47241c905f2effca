"""Memory-guided extraction end to end: a scripted chat model, the real memory as the guide."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from memgraph_neo4j.api import MemoryGraph, make_extractor
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.ontology import load_ontology


def reply(entities: list[tuple[str, str]], facts: list[tuple[str, str, str, str, str]]) -> str:
    return json.dumps({
        "entities": [{"name": n, "type": t} for n, t in entities],
        "facts": [{"head": h, "relation": r, "tail": t, "head_type": ht, "tail_type": tt} for h, r, t, ht, tt in facts],
    })


class RecordingChat(BaseChatModel):
    """Answers by marker word in the prompt; keeps every prompt it was sent."""

    replies: dict[str, str]
    prompts: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "recording"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kw: Any) -> ChatResult:
        user = str(messages[-1].content)
        self.prompts.append(user)
        text = next(v for k, v in self.replies.items() if k in user)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def test_later_chunk_prompt_carries_learned_schemas_and_entities(store, space):
    base = load_ontology()
    ontology = base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1,
                                                                                      "percentile": None})})
    chat = RecordingChat(replies={
        "FIRST": reply([("Ada Lovelace", "Person"), ("Charles Babbage", "Person")],
                       [("Ada Lovelace", "collaborated with", "Charles Babbage", "Person", "Person")]),
        "SECOND": reply([("Charles Babbage", "Person"), ("Analytical Engine", "Product")],
                        [("Charles Babbage", "designed", "Analytical Engine", "Person", "Product")]),
    })
    extractor = make_extractor("langchain", ontology, chat_model=chat, concurrency=1)
    memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=None, extractor=extractor)
    docs = [Document(title="one", text="FIRST Ada Lovelace collaborated with Charles Babbage."),
            Document(title="two", text="SECOND In 1837 Charles Babbage designed the Analytical Engine.")]
    report = memory.ingest(docs, batch_size=1, progress=False)  # promotion runs between the two chunks
    assert report.extracted == 2 and report.failed == 0

    first, second = chat.prompts
    assert "collaborated_with" not in first and "Charles Babbage" not in first.split("FIRST")[0]
    guidance = second.split("SECOND")[0]
    assert "Person -collaborated_with-> Person" in guidance  # the stable schema learned from chunk 1
    assert "Charles Babbage (Person" in guidance  # its canonical entity, because chunk 2 names it
    assert "Ada Lovelace" not in guidance  # chunk 2 does not mention her
    facts = memory.stats()["nodes"]["Fact"]
    assert facts["total"] == 2 and facts["by_state"] == {"active": 2}


class FlakyChat(RecordingChat):
    """Times out on TIMEOUT chunks, answers garbage on GARBAGE chunks, else replies normally."""

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kw: Any) -> ChatResult:
        user = str(messages[-1].content)
        if "TIMEOUT" in user:
            raise TimeoutError("model call timed out")
        if "GARBAGE" in user:
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content="I cannot help with that."))])
        return super()._generate(messages, stop, run_manager, **kw)


def test_timeouts_and_invalid_json_are_listed_as_failed(store, space):
    chat = FlakyChat(replies={"GOOD": reply([("Marie Curie", "Person"), ("Warsaw", "Place")],
                                            [("Marie Curie", "born in", "Warsaw", "Person", "Place")])})
    extractor = make_extractor("langchain", load_ontology(), chat_model=chat, concurrency=2, max_retries=1)
    extractor.backoff = 0.01
    memory = MemoryGraph(space=space, store=store, embedder=None, extractor=extractor)
    report = memory.ingest([Document(text="GOOD Marie Curie was born in Warsaw."),
                            Document(text="TIMEOUT this call hangs"), Document(text="GARBAGE no JSON here")],
                           progress=False)
    assert report.extracted == 1 and report.failed == 2
    stats = memory.stats()
    errors = sorted(f["error"] for f in stats["failed_chunks"])
    assert len(errors) == 2
    assert any("TimeoutError" in e for e in errors) and any("invalid model output" in e for e in errors)
    assert stats["nodes"]["Fact"]["total"] == 1  # the good chunk's fact is stored
