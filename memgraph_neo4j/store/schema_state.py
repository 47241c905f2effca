"""Whether the database already has the schema `GraphStore.init_schema` would create, in one read.

`init_schema` runs ~20 idempotent statements and waits for the indexes (~0.1 s on a warm local
server): every one-shot `query` paid it. When each index and constraint the `schema` folder creates
exists and is ONLINE, and none it drops is left, running the folder would change nothing. Any statement
this module cannot read (not CREATE ... IF NOT EXISTS or DROP ... IF EXISTS) answers "not current", so
new kinds of schema statements fall back to running the folder.
"""

from __future__ import annotations

import re

from memgraph_neo4j.store.graph_store import GraphStore

_CREATE = re.compile(r"^\s*CREATE\s+(?:CONSTRAINT|(?:VECTOR\s+|FULLTEXT\s+|RANGE\s+|TEXT\s+|POINT\s+)?INDEX)"
                     r"\s+(\w+)\s+IF\s+NOT\s+EXISTS\b", re.IGNORECASE | re.MULTILINE)
_DROP = re.compile(r"^\s*DROP\s+(?:CONSTRAINT|INDEX)\s+(\w+)\s+IF\s+EXISTS\s*$", re.IGNORECASE | re.MULTILINE)


def schema_names(store: GraphStore) -> tuple[set[str], set[str]] | None:
    """(names the schema folder creates, names it drops), or None if a statement is neither."""
    created, dropped = set(), set()
    for name in store.cypher.names("schema"):
        text = store.cypher.get(name)
        if match := _CREATE.search(text):
            created.add(match.group(1))
        elif match := _DROP.search(text):
            dropped.add(match.group(1))
        else:
            return None
    return created, dropped


def schema_current(store: GraphStore, dimension: int | None = None) -> bool:
    """True when `init_schema` would change nothing: every index and constraint exists and is ONLINE,
    none of the dropped ones is left. Then, given the embedder's `dimension`, a vector index of another
    size raises StoreError (`GraphStore.check_vector_dimensions`), from the same read."""
    names = schema_names(store)
    if names is None:
        return False
    created, dropped = names
    rows = store.read("admin/index_states")
    states = {row["name"]: row["state"] for row in rows}
    current = all(states.get(name) == "ONLINE" for name in created) and not dropped & states.keys()
    if current and dimension is not None:
        store.check_vector_dimensions(dimension, [row for row in rows if row.get("dimension") is not None])
    return current
