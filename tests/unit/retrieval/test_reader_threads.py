"""RetrievalContext.ahead: the reads a search runs while it embeds the question (RetrievalConfig.concurrent_reads)."""

from __future__ import annotations

import threading

import pytest

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.retrieval.context import RetrievalContext


class Embedder:
    dimension = 4


def context(**options) -> RetrievalContext:
    return RetrievalContext(object(), "unit", Embedder(), RetrievalConfig(**options))  # no statement runs here


def readers() -> list[str]:
    """This module's contexts' reader threads (space "unit"): a context another test left open in the same
    session keeps its own, named after its space."""
    return [t.name for t in threading.enumerate() if t.name.startswith("memgraph-reads-unit")]


def test_reads_run_on_a_reader_thread_until_close():
    ctx = context()
    assert ctx.ahead(lambda: threading.current_thread().name).result().startswith("memgraph-reads-unit")
    assert readers()
    ctx.close()
    assert readers() == []
    # a search after close starts them again; close ends them again
    assert ctx.ahead(lambda x: x + 1, 1).result() == 2
    ctx.close()
    assert readers() == []


def test_switched_off_the_reads_run_in_the_callers_thread():
    ctx = context(concurrent_reads=False)
    assert ctx.ahead(lambda: threading.current_thread()).result() is threading.current_thread()
    assert readers() == []
    ctx.close()


@pytest.mark.parametrize("concurrent", [True, False])
def test_an_error_of_the_reads_surfaces_as_raised(concurrent):
    ctx = context(concurrent_reads=concurrent)
    error = LookupError("no such space")

    def fail():
        raise error

    future = ctx.ahead(fail)
    with pytest.raises(LookupError) as raised:
        future.result()
    assert raised.value is error  # the exception itself, not a wrapper
    ctx.close()
    assert readers() == []
