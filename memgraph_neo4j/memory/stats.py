"""Counts per label and state, failed chunks and token usage of one memory space."""

from __future__ import annotations

from collections import defaultdict

from memgraph_neo4j.store import GraphStore


def memory_stats(store: GraphStore, space: str, failed_limit: int = 100) -> dict:
    labels: dict[str, dict] = defaultdict(lambda: {"total": 0, "by_state": {}})
    for row in store.read("stats/node_counts", space=space):
        entry = labels[row["label"]]
        entry["total"] += row["count"]
        if row["state"] is not None:
            entry["by_state"][row["state"]] = entry["by_state"].get(row["state"], 0) + row["count"]
    relationships = {r["type"]: r["count"] for r in store.read("stats/relationship_counts", space=space)}
    failed = store.read("stats/failed_chunks", space=space, limit=failed_limit)
    usage = store.read("stats/usage", space=space)[0]
    return {"space": space, "nodes": dict(labels), "relationships": relationships,
            "failed_chunks": failed, "usage": usage}
