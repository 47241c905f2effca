"""memgraph-neo4j: a Neo4j-native GraphRAG and agent-memory engine (MemGraphRAG)."""

__version__ = "0.1.0"
