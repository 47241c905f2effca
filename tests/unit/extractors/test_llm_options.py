"""What the CLI and the settings give an LLM extractor: the price (the table of well-known models, overridden per
side), the time-out of each call and the retries (MEMGRAPH_LLM_TIMEOUT / _RETRIES reach the OpenAI client, the
extraction agent's guard and retries, and the adjudication agents); and an interrupted extraction that stops
waiting for the calls in flight (no LLM, no Neo4j)."""

from __future__ import annotations

import signal
import threading
import time

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from memgraph_neo4j.adjudication import agent_config
from memgraph_neo4j.config import AdjudicationConfig, Settings
from memgraph_neo4j.contracts import ExtractionInput, NoGuide
from memgraph_neo4j.extractors.factory import llm_options, make_extractor
from memgraph_neo4j.extractors.llm import LLMExtractor
from memgraph_neo4j.llm import PER_MILLION, Price, price_for
from memgraph_neo4j.memory.ontology import load_ontology

ONTOLOGY = load_ontology()


def test_the_table_prices_well_known_models_per_million_tokens():
    assert price_for("gpt-4o-mini").cost(1_000_000, 1_000_000) == pytest.approx(0.15 + 0.60)
    assert price_for("gpt-4.1-nano").cost(2_000_000, 0) == pytest.approx(0.20)
    assert {"gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-3.5-turbo", "gpt-5",
            "gpt-5-mini", "gpt-5-nano"} <= PER_MILLION.keys()
    assert price_for("llama3.1") is None and price_for(None) is None
    assert Price.per_million(2.0, 8.0) == Price(0.002, 0.008)


def test_prices_given_override_the_table_one_side_at_a_time():
    assert price_for("gpt-4o-mini", 1.0).cost(1_000_000, 1_000_000) == pytest.approx(1.0 + 0.60)
    assert price_for("gpt-4o-mini", None, 0.0).cost(1_000_000, 1_000_000) == pytest.approx(0.15)
    assert price_for("llama3.1", 0.0, 0.0).cost(10**6, 10**6) == 0.0  # a free local server
    with pytest.raises(ValueError, match=r"^model 'llama3.1' is not in the price table \(llm/prices.py\): give "
                                         r"--price-input too"):
        price_for("llama3.1", None, 2.0)
    with pytest.raises(ValueError, match=r"^price_input=-1.0: give a price >= 0 in USD per million tokens$"):
        price_for("gpt-4o", -1.0)


def test_the_extractor_gets_the_table_price_and_a_cost_budget_without_one_names_the_options():
    extractor = make_extractor("openai", ONTOLOGY, model="gpt-4o", api_key="k", budget_cost=1.0)
    assert extractor.chat.price == Price.per_million(2.50, 10.00)
    langchain = make_extractor("langchain", ONTOLOGY, chat_model=FakeListChatModel(responses=["{}"]))
    assert langchain.chat.price is None  # FakeListChatModel: no price known, none needed without a cost budget
    with pytest.raises(ValueError, match=r"a cost budget needs a price for model 'local-model', which the price "
                                         r"table \(llm/prices.py\) does not list: give --price-input and "
                                         r"--price-output \(USD per million tokens"):
        make_extractor("openai", ONTOLOGY, model="local-model", base_url="http://127.0.0.1:9/v1", budget_cost=1.0)


def test_the_settings_time_out_and_retries_reach_the_client_and_both_agents(monkeypatch):
    monkeypatch.setenv("MEMGRAPH_LLM_TIMEOUT", "2.5")
    monkeypatch.setenv("MEMGRAPH_LLM_RETRIES", "0")
    settings = Settings()
    extractor = make_extractor("openai", ONTOLOGY, api_key="k", **llm_options(settings, "openai"))
    assert (extractor.chat.model, extractor.chat.timeout, extractor.timeout, extractor.max_retries) == (
        "gpt-4o-mini", 2.5, 2.5, 0)
    assert extractor.chat.client.timeout == 2.5  # the OpenAI client's own, per request
    assert agent_config(True, settings) == AdjudicationConfig(max_retries=0)
    given = AdjudicationConfig(max_retries=5)
    assert agent_config(given, settings) is given  # a configuration passed to MemoryGraph wins
    # given as options (the CLI's --llm-timeout / --llm-retries), they win over the settings
    chosen = {**llm_options(settings, "openai"), "timeout": 9.0}
    assert make_extractor("openai", ONTOLOGY, api_key="k", **chosen).chat.timeout == 9.0
    monkeypatch.delenv("MEMGRAPH_LLM_TIMEOUT")
    monkeypatch.delenv("MEMGRAPH_LLM_RETRIES")
    assert llm_options(Settings(), "langchain") == {} and agent_config(True, Settings()) is None
    default = make_extractor("openai", ONTOLOGY, api_key="k", **llm_options(Settings(), "openai"))
    assert (default.chat.timeout, default.timeout, default.max_retries) == (60, 120.0, 3)


class _Hung:
    """A chat client whose calls never answer (a provider that accepted the request and went quiet)."""

    provider, model, price = "hung", "hung-1", None

    def __init__(self) -> None:
        self.release = threading.Event()

    def complete_json(self, system, user, schema):
        self.release.wait(600)
        raise TimeoutError("released")


def test_ctrl_c_during_extraction_stops_waiting_for_the_calls_in_flight():
    """Without it, the thread pool's exit waits for each call's 120 s guard before Ctrl-C gets through."""
    chat = _Hung()
    extractor = LLMExtractor(chat, ONTOLOGY, concurrency=2, timeout=120.0, max_retries=0)
    items = [ExtractionInput(passage_id=f"p{i}", doc_id="d", text="Ada Lovelace was born in London.") for i in range(2)]

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    began = time.monotonic()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(KeyboardInterrupt):
            extractor.extract(items, NoGuide())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        chat.release.set()
    assert time.monotonic() - began < 30
    # the next extraction is not taken for interrupted: its call runs (and fails on its own)
    [outcome] = extractor.extract(items[:1], NoGuide())
    assert outcome.error == "model call failed: TimeoutError: released (after 1 attempts)"
