from memgraph_neo4j.store.cypher import CypherLibrary, cypher_root, default_library
from memgraph_neo4j.store.graph_store import STAMP, GraphStore, StoreError

__all__ = ["STAMP", "CypherLibrary", "GraphStore", "StoreError", "cypher_root", "default_library"]
