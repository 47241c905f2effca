"""What the Neo4j server runs: its version and edition, GDS's, the JVM's (cypher/server/components)."""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.store import GraphStore


def server_components(store: GraphStore) -> dict[str, Any]:
    """Fails (a store or Neo4j error) until Neo4j answers with GDS loaded: a readiness probe."""
    row = store.read("server/components")[0]
    return {"neo4j": row["neo4j"], "edition": row["edition"], "gds": row["gds"], "java": row["java_spec"]}
