"""neo4j-graphrag: `MemoryRetriever`, a `neo4j_graphrag.retrievers.base.Retriever` for `GraphRAG`.

    from neo4j_graphrag.generation import GraphRAG
    from memgraph_neo4j.adapters.neo4j_graphrag import MemoryRetriever
    rag = GraphRAG(retriever=MemoryRetriever(memory, top_k=3), llm=llm)   # memory: a MemoryGraph
    rag.search("Where was Ada Lovelace born?", retriever_config={"as_of": "2024-01-01", "method": "hybrid"})

Each `RetrieverResultItem` has the passage as the model reads it (its citation and id, its text, the facts
it supports with their states and conflicts: `Recalled.context`) as `content`, and the metadata of every
adapter (adapters/recall.py) as `metadata`. A graph that neo4j-graphrag's KG builder wrote is not a memory
space as it stands: docs/guides/adapters.md says how to import one.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.adapters.recall import FACTS_PER_PASSAGE, recall

try:
    import neo4j
    from neo4j_graphrag.retrievers.base import Retriever
    from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem
except ImportError as exc:
    raise ImportError("memgraph_neo4j.adapters.neo4j_graphrag needs neo4j-graphrag: "
                      "pip install 'memgraph-neo4j[neo4j-graphrag]'") from exc


class MemoryRetriever(Retriever):
    """The passages `MemoryGraph.search` finds, for `GraphRAG(retriever=..., llm=...)`. `method`, `top_k`, `as_of`
    (a date: the facts valid then; hybrid methods) and `facts` (supporting facts per passage) are the defaults
    of `search(query_text, top_k=, as_of=, method=)`, which GraphRAG calls with its `retriever_config`."""

    VERIFY_NEO4J_VERSION = False  # the engine checks its server itself (server/connection.py)

    def __init__(self, memory: Any, method: str = "memgraphrag", top_k: int = 5, as_of: Any = None,
                 facts: int = FACTS_PER_PASSAGE) -> None:
        # Not Retriever.__init__: it renames the driver's user agent, and this driver is the engine's. Its
        # attributes are set as it sets them.
        self.driver, self.neo4j_database = memory.store.driver, memory.store.database
        self.memory, self.method, self.top_k, self.as_of, self.facts = memory, method, top_k, as_of, facts

    def get_search_results(self, query_text: str, top_k: int | None = None, as_of: str | None = None,
                           method: str | None = None) -> RawSearchResult:
        """The top_k passages for `query_text` (each with its document and supporting facts)."""
        as_of = as_of if as_of is not None else self.as_of
        method = method or self.method
        found = recall(self.memory, query_text, method, top_k or self.top_k, as_of, self.facts)
        return RawSearchResult(records=[neo4j.Record({"content": f.context(), "metadata": f.metadata}) for f in found],
                               metadata={"space": self.memory.space, "method": method, "as_of": as_of})

    def get_result_formatter(self):
        return lambda record: RetrieverResultItem(content=record["content"], metadata=record["metadata"])
