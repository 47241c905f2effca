"""Fixtures of the adapters' tests: the known memory (adapter_memory.py) and an empty space to write to."""

from __future__ import annotations

import pytest
from adapter_memory import CHAT, DOCS, drop_space, memory_options, new_space

from memgraph_neo4j.api import MemoryGraph


@pytest.fixture(scope="module")
def known(store, minilm):
    """The memory of adapter_memory.py, in a space of its own per test module (read only: writers make theirs)."""
    space = new_space()
    memory = MemoryGraph(space=space, store=store, **memory_options(minilm))
    memory.ingest(DOCS, progress=False)
    memory.ingest_conversations([CHAT])
    assert sorted(sorted(c.facts) for c in memory.conflicts.list("needs_review")) == [
        ["Acme headquartered in Berlin", "Acme headquartered in Paris"],
        ["Isaac Newton born in Cambridge", "Isaac Newton born in Woolsthorpe"]]
    yield memory
    memory.close()
    drop_space(store, space)


@pytest.fixture
def blank(store, minilm):
    """An empty memory space to write to, deleted afterwards."""
    space = new_space()
    memory = MemoryGraph(space=space, store=store, **memory_options(minilm))
    yield memory
    memory.close()
    drop_space(store, space)
