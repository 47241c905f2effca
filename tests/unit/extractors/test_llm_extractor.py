"""LLM extraction agent and provider layer, with scripted chat models (no LLM, no Neo4j)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration
from langchain_core.outputs import ChatResult as LCChatResult
from pydantic import Field

from memgraph_neo4j.contracts import Extraction, ExtractionInput, Extractor, KnownEntity, KnownSchema, NoGuide
from memgraph_neo4j.extractors.llm import BUDGET_SKIP, LLMExtractor, parse_extraction
from memgraph_neo4j.llm import LangChainChat, OpenAIChat, Price, make_chat
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.prompts.extraction import PROMPT_VERSION, build_prompt

ONTOLOGY = load_ontology()


def good_json(head: str, tail: str = "Warsaw") -> str:
    return json.dumps({
        "entities": [{"name": head, "type": "Person"}, {"name": tail, "type": "Place"}],
        "facts": [{"head": head, "relation": "born_in", "tail": tail, "head_type": "Person", "tail_type": "Place"}],
    })


def passage_of(user: str) -> str:
    return user.rsplit("Passage:\n", 1)[1]


class ScriptedChat(BaseChatModel):
    """Records the messages it receives; answers with respond(passage text) (a str, or an exception to raise)."""

    respond: Callable[[str], Any]
    calls: list[tuple[str, str]] = Field(default_factory=list)
    usage: tuple[int, int] | None = (100, 50)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> LCChatResult:
        system, user = str(messages[0].content), str(messages[1].content)
        self.calls.append((system, user))
        out = self.respond(passage_of(user))
        if isinstance(out, BaseException):
            raise out
        meta = None
        if self.usage:
            meta = {"input_tokens": self.usage[0], "output_tokens": self.usage[1], "total_tokens": sum(self.usage)}
        return LCChatResult(generations=[ChatGeneration(message=AIMessage(content=out, usage_metadata=meta))])


class Guide:
    """A memory that knows two schemas and Marie Curie."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def stable_schemas(self, limit: int = 50) -> list[KnownSchema]:
        return [
            KnownSchema(head_type="Organization", relation="headquartered_in", tail_type="Place", frequency=3),
            KnownSchema(head_type="Person", relation="born_in", tail_type="Place", frequency=12),
        ][:limit]

    def known_entities(self, text: str, limit: int = 30) -> list[KnownEntity]:
        self.asked.append(text)
        if "Curie" in text:
            return [KnownEntity(name="Marie Skłodowska-Curie", type="Person", aliases=["Marie Curie"])]
        return []


def items(n: int) -> list[ExtractionInput]:
    return [ExtractionInput(passage_id=f"p{i}", doc_id="d1", text=f"Person{i} was born in Warsaw.") for i in range(n)]


def extractor(model: BaseChatModel, price: Price | None = None, **kw: Any) -> LLMExtractor:
    kw.setdefault("backoff", 0)
    return LLMExtractor(LangChainChat(model, price=price), ONTOLOGY, **kw)


def echo(passage: str) -> str:
    return good_json(passage.split()[0])


# -- (a) memory guidance --------------------------------------------------------------------


def test_prompt_carries_ontology_stable_schemas_and_known_entities() -> None:
    model = ScriptedChat(respond=lambda p: good_json("Marie Skłodowska-Curie"))
    guide = Guide()
    chunk = ExtractionInput(passage_id="p1", doc_id="d1", text="Marie Curie was born in Warsaw.", title="Curie")
    ext = extractor(model, price=Price(1.0, 2.0))
    assert isinstance(ext, Extractor) and ext.name == "langchain"

    [out] = ext.extract([chunk], guide)

    assert out.ok and out.attempts == 1 and out.prompt_version == PROMPT_VERSION == "ext-v2"
    assert out.extraction.facts[0].head == "Marie Skłodowska-Curie"
    assert out.usage.prompt_tokens == 100 and out.usage.completion_tokens == 50
    assert out.usage.cost == pytest.approx(0.1 + 0.1)
    [(system, user)] = model.calls
    # (a) ontology: entity types and declared relations with domain/range
    assert "Person, Organization" in system and "born_in: Person -> Place" in system
    assert "member_of: Person|Organization|Place -> Organization|Group (t)" in system
    # (b) stable schemas, most frequent first, as reuse instructions
    assert "reuse these relation names and types" in user
    assert user.index("Person -born_in-> Place") < user.index("Organization -headquartered_in-> Place")
    # (c) canonical names of the entities the chunk mentions
    assert guide.asked == [chunk.text]
    assert "use exactly these names" in user and "Marie Skłodowska-Curie (Person; also: Marie Curie)" in user
    assert user.endswith("Title: Curie\nMarie Curie was born in Warsaw.")
    # the same prompt from the public builder
    assert build_prompt(chunk, ONTOLOGY, Guide()) == (system, user)


def test_empty_memory_has_no_memory_section() -> None:
    model = ScriptedChat(respond=echo)
    [out] = extractor(model).extract(items(1), NoGuide())
    assert out.ok
    assert "Memory" not in model.calls[0][1]


def test_strict_ontology_forbids_new_relations() -> None:
    strict = ONTOLOGY.model_copy(update={"mode": "strict"})
    from memgraph_neo4j.prompts.extraction import system_prompt

    assert "Use only these entity types" in system_prompt(strict)
    assert "Coin a new" in system_prompt(ONTOLOGY) and "Coin a new" not in system_prompt(strict)


# -- (b) repair, retries, timeouts ----------------------------------------------------------


@pytest.mark.parametrize("raw", [
    "```json\n" + good_json("Person0")[:-1] + ",}\n```",  # fenced, trailing comma
    "Here is the JSON:\n" + good_json("Person0") + "\nLet me know if you need more.",  # chatter
    good_json("Person0")[:-3],  # truncated
])
def test_repairable_output_is_parsed(raw: str) -> None:
    [out] = extractor(ScriptedChat(respond=lambda p: raw)).extract(items(1), NoGuide())
    assert out.ok and out.attempts == 1
    assert out.extraction.facts[0].head == "Person0"


def test_parse_coerces_and_drops_malformed_items() -> None:
    ext = parse_extraction('{"entities": ["Rome"], "facts": [{"head": "Rome", "relation": "founded", "tail": "Romulus",'
                           ' "time": -753}, {"head": "Rome", "relation": "x", "tail": null}]}')
    assert ext.entities[0].name == "Rome" and ext.entities[0].type == "Thing"
    assert [f.time for f in ext.facts] == ["-753"]
    assert parse_extraction("{}") == Extraction()
    for hopeless in ["", "I cannot help with that.", '{"answer": 42}', "{"]:
        with pytest.raises(ValueError):
            parse_extraction(hopeless)


def test_hopeless_output_ends_as_error_after_retries() -> None:
    sleeps: list[float] = []
    model = ScriptedChat(respond=lambda p: "Sorry, I can't extract anything.")
    ext = LLMExtractor(LangChainChat(model), ONTOLOGY, max_retries=3, backoff=0.5, sleep=sleeps.append)
    [out] = ext.extract(items(1), NoGuide())
    assert not out.ok and out.extraction is None
    assert out.error.startswith("invalid model output") and "after 4 attempts" in out.error
    assert out.attempts == 4 and len(model.calls) == 4
    assert sleeps == [0.5, 1.0, 2.0]  # exponential backoff
    assert out.usage.prompt_tokens == 400  # failed attempts are paid for too
    assert ext.spent.prompt_tokens == 400


def test_flaky_output_succeeds_on_retry() -> None:
    answers = iter(["not json", good_json("A")])
    [out] = extractor(ScriptedChat(respond=lambda p: next(answers))).extract(items(1), NoGuide())
    assert out.ok and out.attempts == 2 and out.usage.completion_tokens == 100


def test_timeout_is_an_error_and_other_chunks_succeed() -> None:
    def respond(p: str) -> Any:
        return TimeoutError("read timed out") if p.startswith("Person1 ") else echo(p)

    outs = extractor(ScriptedChat(respond=respond), max_retries=2).extract(items(3), NoGuide())
    assert [o.ok for o in outs] == [True, False, True]
    assert "TimeoutError" in outs[1].error and outs[1].attempts == 3 and outs[1].extraction is None


def test_hung_call_is_cut_by_the_wall_clock_timeout() -> None:
    released = threading.Event()

    def respond(p: str) -> str:
        if p.startswith("Person0 "):
            released.wait(30.0)  # hangs until the test lets it go (a call the timeout does not cut: 30 s)
        return echo(p)

    t0 = time.monotonic()
    try:
        outs = extractor(ScriptedChat(respond=respond), max_retries=0, timeout=0.2).extract(items(2), NoGuide())
        elapsed = time.monotonic() - t0
    finally:
        released.set()
    assert elapsed < 10.0  # cut after 0.2 s: generous for a loaded CI machine (0.93 s seen), far below 30 s
    assert "TimeoutError: no answer within 0.2s" in outs[0].error and outs[1].ok


def test_client_errors_are_not_retried() -> None:
    class AuthError(Exception):
        status_code = 401

    model = ScriptedChat(respond=lambda p: AuthError("bad key"))
    [out] = extractor(model).extract(items(1), NoGuide())
    assert out.attempts == 1 and "AuthError: bad key" in out.error


def test_guide_failure_is_reported_per_chunk() -> None:
    class Broken(Guide):
        def known_entities(self, text: str, limit: int = 30) -> list[KnownEntity]:
            raise RuntimeError("memory offline")

    model = ScriptedChat(respond=echo)
    [out] = extractor(model).extract(items(1), Broken())
    assert out.error == "memory guide failed: RuntimeError: memory offline" and not model.calls


# -- (c) order under concurrency ------------------------------------------------------------


def test_order_preserved_under_concurrency() -> None:
    n, running, peak = 12, [0], [0]
    lock = threading.Lock()

    def respond(p: str) -> str:
        i = int(p.split()[0].removeprefix("Person"))
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.01 * (n - i))  # later chunks finish first
        with lock:
            running[0] -= 1
        return echo(p)

    outs = extractor(ScriptedChat(respond=respond), concurrency=4).extract(items(n), NoGuide())
    assert [o.passage_id for o in outs] == [f"p{i}" for i in range(n)]
    assert [o.extraction.facts[0].head for o in outs] == [f"Person{i}" for i in range(n)]
    assert 1 < peak[0] <= 4


# -- (d) budget -----------------------------------------------------------------------------


def test_token_budget_stops_at_a_chunk_boundary() -> None:
    model = ScriptedChat(respond=echo)  # 150 tokens per call
    ext = extractor(model, concurrency=1, budget_tokens=400)
    outs = ext.extract(items(6), NoGuide())
    assert [o.ok for o in outs] == [True, True, True, False, False, False]
    assert len(model.calls) == 3
    for o in outs[3:]:
        assert o.error.startswith(BUDGET_SKIP) and o.extraction is None and o.attempts == 0
    assert "450 of 400 tokens" in outs[3].error
    # the budget spans calls: nothing more is sent
    assert all(o.error.startswith(BUDGET_SKIP) for o in ext.extract(items(2), NoGuide()))
    assert len(model.calls) == 3


def test_cost_budget() -> None:
    model = ScriptedChat(respond=echo)  # 0.1 + 0.1 per call at this price
    outs = extractor(model, price=Price(1.0, 2.0), concurrency=1, budget_cost=0.3).extract(items(4), NoGuide())
    assert [o.ok for o in outs] == [True, True, False, False]
    assert outs[2].error.startswith("skipped: budget exhausted (cost 0.4000")
    with pytest.raises(ValueError, match="needs a price"):
        extractor(model, budget_cost=1.0)


def test_estimate_spends_nothing() -> None:
    model = ScriptedChat(respond=echo)
    ext = extractor(model, price=Price(1.0, 2.0))
    one, three = ext.estimate(items(1), Guide()), ext.estimate(items(3), Guide())
    assert not model.calls
    assert one.prompt_tokens > 500  # the ontology alone is several hundred tokens
    assert three.prompt_tokens > 2.9 * one.prompt_tokens and three.completion_tokens >= 300
    assert three.tokens == three.prompt_tokens + three.completion_tokens > one.tokens
    assert three.cost == pytest.approx((three.prompt_tokens + 2 * three.completion_tokens) / 1000)


def test_usage_is_estimated_when_the_model_reports_none() -> None:
    model = FakeListChatModel(responses=[good_json("A")])
    [out] = extractor(model).extract(items(1), NoGuide())
    assert out.ok and out.usage.prompt_tokens > 500 and out.usage.completion_tokens > 10


# -- (e) OpenAIChat against a local OpenAI-compatible stub ----------------------------------


class _Stub(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    requests: list[dict[str, Any]]


class _Handler(BaseHTTPRequestHandler):
    server: _Stub

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, **body})
        if body["model"] == "slow":
            time.sleep(1.0)
        passage = passage_of(body["messages"][1]["content"])
        payload = json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"] + "-0613",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": echo(passage)}}],
            "usage": {"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366},
        }).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except OSError:  # the client gave up (timeout test)
            pass


@pytest.fixture
def stub() -> Iterator[_Stub]:
    server = _Stub(("127.0.0.1", 0), _Handler)
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _url(server: _Stub) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def test_openai_chat_against_stub(stub: _Stub) -> None:
    chat = OpenAIChat("gpt-stub", base_url=_url(stub), api_key="sk-test", price=Price(0.5, 1.5))
    res = chat.complete_json("sys", "Passage:\nAda Lovelace was born in London.", Extraction)
    assert json.loads(res.text)["facts"][0]["head"] == "Ada"
    assert res.model == "gpt-stub-0613"
    assert (res.usage.prompt_tokens, res.usage.completion_tokens) == (321, 45)
    assert res.usage.cost == pytest.approx(321 * 0.5 / 1000 + 45 * 1.5 / 1000)
    req = stub.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["model"] == "gpt-stub"
    assert req["response_format"] == {"type": "json_object"} and req["temperature"] == 0.0
    assert [m["role"] for m in req["messages"]] == ["system", "user"]


def test_openai_structured_output_sends_the_schema(stub: _Stub) -> None:
    OpenAIChat("gpt-stub", base_url=_url(stub), structured=True).complete_json("s", "Passage:\nx y", Extraction)
    fmt = stub.requests[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "Extraction"
    assert "facts" in fmt["json_schema"]["schema"]["properties"]


def test_extractor_over_openai_stub(stub: _Stub) -> None:
    ext = LLMExtractor(make_chat("openai", model="gpt-stub", base_url=_url(stub), api_key="k", price=Price(0.5, 1.5)),
                       ONTOLOGY, concurrency=2)
    outs = ext.extract(items(3), Guide())
    assert all(o.ok for o in outs) and {o.extractor for o in outs} == {"openai"}
    assert [o.extraction.facts[0].head for o in outs] == ["Person0", "Person1", "Person2"]
    assert ext.spent.prompt_tokens == 3 * 321 and outs[0].model == "gpt-stub-0613"
    assert "Person -born_in-> Place" in stub.requests[0]["messages"][1]["content"]


def test_openai_timeout_surfaces_as_timeout_error(stub: _Stub) -> None:
    chat = OpenAIChat("slow", base_url=_url(stub), timeout=0.2)
    with pytest.raises(TimeoutError, match="no answer within 0.2s"):
        chat.complete_json("s", "Passage:\nx y", Extraction)


def test_make_chat() -> None:
    assert make_chat("Ollama", model="llama3.1").client.base_url.host == "localhost"
    with pytest.raises(ValueError, match="unknown LLM provider 'gemini'; expected one of: openai, ollama"):
        make_chat("gemini", model="x")
    with pytest.raises(TypeError, match="BaseChatModel"):
        make_chat("langchain", model="gpt-4o")
    assert make_chat("langchain", model=FakeListChatModel(responses=["{}"])).provider == "langchain"


def test_prompt_marks_section_starts_and_bounds_references_by_them() -> None:
    # HTML/DOCX text shows headings as plain lines: the prompt marks them, and its rules bound references
    text = ("Ada Lovelace\n\nShe wrote an algorithm.\n\n## Grace Hopper\n\nGrace Hopper\n\n"
            "She was born in New York City.")
    item = ExtractionInput(passage_id="p", doc_id="d", text=text,
                           scopes=[text.index("## Grace"), text.index("Grace Hopper\n\nShe"), 999])
    system, user = build_prompt(item, ONTOLOGY, Guide())
    assert "never across a heading" in system and "gives no fact" in system
    assert user.endswith("Ada Lovelace\n\nShe wrote an algorithm.\n\n## Grace Hopper\n\n## Grace Hopper\n\n"
                         "She was born in New York City.")
    assert build_prompt(item.model_copy(update={"scopes": []}), ONTOLOGY, Guide())[1].endswith(text)
