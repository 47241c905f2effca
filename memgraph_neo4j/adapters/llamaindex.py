"""LlamaIndex (llama-index-core): `MemoryRetriever`, a `BaseRetriever` of `NodeWithScore`s.

    from llama_index.core.query_engine import RetrieverQueryEngine
    from memgraph_neo4j.adapters.llamaindex import MemoryRetriever
    engine = RetrieverQueryEngine.from_args(MemoryRetriever(memory, top_k=3), llm=llm)  # memory: a MemoryGraph

Each node is a `TextNode` (id: the passage id, text: the passage) whose metadata is every adapter's
(adapters/recall.py). The model reads the passage with its citation, passage id and `supported_facts`
(the facts as lines, with their states and conflicts); the structured `facts` and the ids stay out of the
prompt, and all metadata out of embeddings.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.adapters.recall import FACTS_PER_PASSAGE, Recalled, recall

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:
    raise ImportError("memgraph_neo4j.adapters.llamaindex needs llama-index-core: "
                      "pip install 'memgraph-neo4j[llamaindex]'") from exc

SHOWN = ("citation", "passage_id", "supported_facts")  # the metadata the model reads with the passage


def as_node(found: Recalled) -> NodeWithScore:
    metadata = {**found.metadata, "supported_facts": found.facts_text()}
    node = TextNode(id_=found.id, text=found.text, metadata=metadata,
                    excluded_embed_metadata_keys=list(metadata),
                    excluded_llm_metadata_keys=[k for k in metadata if k not in SHOWN])
    return NodeWithScore(node=node, score=found.score)


class MemoryRetriever(BaseRetriever):
    """The passages `MemoryGraph.search` finds, as nodes with scores. `method`, `top_k`, `as_of` (a date: the
    facts valid then; hybrid methods) and `facts` (supporting facts per passage) apply to every query."""

    def __init__(self, memory: Any, method: str = "memgraphrag", top_k: int = 5, as_of: Any = None,
                 facts: int = FACTS_PER_PASSAGE, **options: Any) -> None:
        super().__init__(**options)  # callback_manager, verbose, ...
        self.memory, self.method, self.top_k, self.as_of, self.facts = memory, method, top_k, as_of, facts

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [as_node(found) for found in recall(self.memory, query_bundle.query_str, self.method, self.top_k,
                                                   self.as_of, self.facts)]
