"""Adapters to the agent frameworks, on the `MemoryGraph` facade; each is an optional extra and imports its
framework only when its module is imported (nothing here imports one):

- `adapters.langchain`: `MemoryRetriever` (a langchain-core `BaseRetriever` of `Document`s) and `memory_tools`
  (search, write, provenance, conflicts as `BaseTool`s); `pip install 'memgraph-neo4j[langchain]'`.
- `adapters.langgraph`: `MemoryStore`, a LangGraph `BaseStore` (long-term memory) on memory spaces;
  `pip install 'memgraph-neo4j[langgraph]'`.
- `adapters.neo4j_graphrag`: `MemoryRetriever`, a neo4j-graphrag `Retriever` for `GraphRAG`;
  `pip install 'memgraph-neo4j[neo4j-graphrag]'`.
- `adapters.llamaindex`: `MemoryRetriever`, a LlamaIndex `BaseRetriever` of `NodeWithScore`s;
  `pip install 'memgraph-neo4j[llamaindex]'`.

Every retrieved item carries the same metadata (`adapters.recall.passage_metadata`): passage id, document,
title, page, heading, score, method, and the facts the passage evidences with their states and conflicts.
"""
