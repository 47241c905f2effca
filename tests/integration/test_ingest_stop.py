"""Why an ingest ended, on every surface: the report's `stopped` (done, budget, failures, interrupted) from the
API and MCP's write_memory; an interrupted ingest raises with its report and the next one resumes; and the
progress bar's total, shown only once the last document is pulled, never changes."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from test_bad_input import Empty, memory_of

from memgraph_neo4j.contracts import StopReason
from memgraph_neo4j.extractors.llm import LLMExtractor
from memgraph_neo4j.ingest import pipeline
from memgraph_neo4j.ingest.pipeline import IngestInterrupted
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.llm import LangChainChat
from memgraph_neo4j.memory.ontology import load_ontology

REPLY = '{"entities": [{"name": "Ada Lovelace", "type": "Person"}], "facts": []}'


def documents(count: int) -> list[Document]:
    return [Document(title=f"D{i}", text=f"Document {i} says Ada Lovelace met Charles Babbage.") for i in range(count)]


class _Bar:
    """Stands in for tqdm: records the total at every step."""

    made: list[_Bar] = []

    def __init__(self, total=None, **_) -> None:
        self.total, self.n, self.steps = total, 0, []
        _Bar.made.append(self)

    def update(self, n: int) -> None:
        self.n += n
        self.steps.append((self.n, self.total))

    def refresh(self) -> None:
        pass

    def set_postfix(self, **_) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("count", "unknown_first"), [(12, True), (3, False)])
def test_the_progress_total_is_shown_once_known_and_never_changes(store, space, monkeypatch, count, unknown_first):
    """Documents are pulled as the batches need them (2 batches ahead): the total of 12 is known only at the
    last pull, so the bar counts without one until then; 3 documents are all pulled at once."""
    monkeypatch.setattr(pipeline, "tqdm", _Bar)
    _Bar.made.clear()
    with memory_of(store, space, extractor=Empty()) as memory:
        report = memory.ingest(documents(count), batch_size=2, progress=True)
    [bar] = _Bar.made
    totals = [total for _, total in bar.steps]
    known = [t for t in totals if t is not None]
    assert set(known) == {count} and totals == [None] * (len(totals) - len(known)) + known  # set once, then kept
    assert (totals[0] is None) == unknown_first
    assert (bar.n, report.extracted, report.stopped) == (count, count, StopReason.DONE)


class _InterruptedAt:
    """Extracts nothing, successfully, until the `at`-th batch: there the user presses Ctrl-C."""

    name = "interrupted"

    def __init__(self, at: int) -> None:
        self.at, self.batches = at, 0

    def extract(self, items, guide):
        self.batches += 1
        if self.batches == self.at:
            raise KeyboardInterrupt
        return Empty().extract(items, guide)


def test_an_interrupted_ingest_raises_with_its_report_and_the_next_resumes(store, space):
    with memory_of(store, space, extractor=_InterruptedAt(2)) as memory:
        with pytest.raises(IngestInterrupted) as caught:
            memory.ingest(documents(6), batch_size=2, progress=False)
        report = caught.value.report
        assert isinstance(caught.value, KeyboardInterrupt)  # callers catching Ctrl-C still do
        assert (report.stopped, report.interrupted, report.extracted) == (StopReason.INTERRUPTED, True, 2)
        assert report.model_dump()["stopped"] == "interrupted"  # what --json prints
        # the lease is free again, the first batch kept: the rest is extracted, the run done
        again = memory.ingest(documents(6), batch_size=2, progress=False, extractor=Empty())
    assert (again.stopped, again.passages_new, again.extracted) == (StopReason.DONE, 4, 4)


def _budgeted() -> LLMExtractor:
    """Spends its one-token budget on the first chunk: the others are left pending."""
    chat = LangChainChat(FakeListChatModel(responses=[REPLY]))
    return LLMExtractor(chat, load_ontology(), concurrency=1, budget_tokens=1, backoff=0)


def test_a_budget_stop_is_named_by_the_api_and_by_mcp(store, minilm, space):
    from memgraph_neo4j.mcp.spaces import SpacePool
    from memgraph_neo4j.mcp.tools import MemoryTools

    text = " ".join(f"Sentence {i}: Ada Lovelace wrote notes on the Analytical Engine." for i in range(120))
    pool = SpacePool([space], store=store, extractor=_budgeted(), embedder=minilm)
    try:
        written = MemoryTools(pool).write_memory(text=text, title="Notes")
    finally:
        pool.close()
    assert written.passages > 2 and written.stopped == "budget"
    with memory_of(store, space, embedder=minilm, extractor=_budgeted()) as memory:
        report = memory.ingest([Document(title="Notes", text=text)], progress=False)
    assert (report.stopped, report.extracted, report.skipped_budget) == (StopReason.BUDGET, 1, written.passages - 2)
    done = memory_of(store, space, embedder=minilm, extractor=Empty()).ingest([Document(title="Notes", text=text)],
                                                                              progress=False)
    assert (done.stopped, done.extracted) == (StopReason.DONE, written.passages - 2)
