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
from memgraph_neo4j.retrieval.hybrid import (
    HybridContextRetriever,
    HybridExpandedRetriever,
    HybridPprRetriever,
    HybridRetriever,
)
from memgraph_neo4j.retrieval.memgraphrag import MemGraphRAGRetriever

__all__ = ["METHODS", "Hit", "RetrievalContext", "RetrievalResult", "Retriever", "make_retriever"]

METHODS: dict[str, type[Retriever]] = {
    "dense": DenseRetriever,
    "bm25": BM25Retriever,
    "hipporag2": HippoRAG2Retriever,
    "memgraphrag": MemGraphRAGRetriever,
    # conversation memory: System-1 hybrid search (retrieval/hybrid.py)
    "hybrid": HybridRetriever,
    "hybrid-expand": HybridExpandedRetriever,
    "hybrid-ppr": HybridPprRetriever,
    "hybrid-context": HybridContextRetriever,
}


def make_retriever(method: str, context: RetrievalContext) -> Retriever:
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    return METHODS[method](context)
