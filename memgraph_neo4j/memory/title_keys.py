"""Passage title keys: the title normalised as alias keys are (memory/normalize.py), stored with each
passage so that retrieval finds the passages a question's names title by an index seek
(cypher/retrieval/memory_state_names) instead of reading every title of the space.

The writer stores the key with every passage. Passages written before the key existed get it from
`backfill_title_keys`, which `MemoryGraph.init` runs when the schema was missing something (the key's
index, on every database made before it) and `memgraph-neo4j init` always runs, both for the whole
database. Until a space's keys are complete (MemoryState.title_keys, cypher/memory/bump_version)
retrieval reads its titles instead, with the same result.
"""

from __future__ import annotations

from memgraph_neo4j.memory.normalize import bounded_key, normalize_entity_name
from memgraph_neo4j.repository.passages import unkeyed_titles, write_title_keys
from memgraph_neo4j.store import GraphStore


def title_key(title: str | None) -> str | None:
    """None for an untitled passage; "" for a title without a word (stored, so that the passage does
    not count as missing its key; no question span has that key). A key past MAX_KEY_CHARS is cut and
    hashed (normalize.bounded_key): the passage keeps its whole title, the index a bounded key."""
    return None if title is None else bounded_key(normalize_entity_name(title))


def backfill_title_keys(store: GraphStore, space: str | None = None) -> tuple[int, int]:
    """Title keys for every titled passage of one space (None: of the database) without one: (passages
    keyed, spaces marked complete)."""
    missing = unkeyed_titles(store, space)
    return len(missing), write_title_keys(store, [(t, title_key(t.title)) for t in missing], space)
