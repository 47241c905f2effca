"""Retrieval methods behind one interface (`base.Retriever`): dense, bm25, hipporag2, memgraphrag.

    context = RetrievalContext(store, space, embedder, RetrievalConfig())
    make_retriever("memgraphrag", context).search("...", top_k=5)
"""

from __future__ import annotations

from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, Retriever
from memgraph_neo4j.retrieval.bm25 import BM25Retriever
from memgraph_neo4j.retrieval.context import RetrievalContext
from memgraph_neo4j.retrieval.dense import DenseRetriever
from memgraph_neo4j.retrieval.hipporag2 import HippoRAG2Retriever
from memgraph_neo4j.retrieval.memgraphrag import MemGraphRAGRetriever

__all__ = ["METHODS", "SEARCH_METHODS", "Hit", "RetrievalContext", "RetrievalResult", "Retriever", "check_method",
           "make_retriever"]

# conversation memory's methods, imported when chosen (retrieval/hybrid.py and its repository: ~8 ms of a
# one-shot `query` that does not use them)
_HYBRID = {"hybrid": "HybridRetriever", "hybrid-expand": "HybridExpandedRetriever",
           "hybrid-ppr": "HybridPprRetriever", "hybrid-context": "HybridContextRetriever"}
METHODS: dict[str, type[Retriever] | str] = {
    "dense": DenseRetriever,
    "bm25": BM25Retriever,
    "hipporag2": HippoRAG2Retriever,
    "memgraphrag": MemGraphRAGRetriever,
    # conversation memory: System-1 hybrid search (retrieval/hybrid.py), by class name
    **_HYBRID,
}


# every method `MemoryGraph.search` takes: the registry's, and dual (System-1 + a chat model's walk of the
# category hierarchy, retrieval/dual.py), which needs the chat model besides the context
SEARCH_METHODS = (*METHODS, "dual")


def check_method(method: str) -> None:
    if method not in SEARCH_METHODS:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(SEARCH_METHODS)}")


def make_retriever(method: str, context: RetrievalContext) -> Retriever:
    check_method(method)
    if method not in METHODS:
        raise ValueError(f"method {method!r} needs a chat model besides the context: MemoryGraph.search(method="
                         f"{method!r}, chat=...) or retrieval.dual.DualRetriever")
    chosen = METHODS[method]
    if isinstance(chosen, str):
        from memgraph_neo4j.retrieval import hybrid

        chosen = getattr(hybrid, chosen)
    return chosen(context)
