"""Entity.key: an entity's own name (the normalised name its id is the hash of) on the entity itself
(issue 32). Before it, every normalised name was an `Alias` node with an ALIAS_OF: on MuSiQue 19,137
Alias nodes served 18,696 entities, 97 % of them the entity's own name, ~10 nodes and ~10 relationships
of a passage's ~34 nodes and ~86 relationships. Alias nodes stay for the other names: those merged by
similarity (with their merge record, memory/resolve.py) and, from a space written before merges were
recorded, unrecorded ones.

`fold_alias_keys` migrates a database written before: the Alias of each entity's own name becomes the
entity's key and goes, a page of `batch` aliases per read and one write transaction per page, for the
whole database or one space. `MemoryGraph.init` runs it when the schema was missing something (the
key's index, on every database made before it); `memgraph-neo4j init` always runs it. Idempotent: a
folded Alias is gone, so a second run reads only the other names and folds nothing. Until it has run,
name look-ups find own names as Alias nodes still (cypher/memory/lookup_aliases), with the same result.
"""

from __future__ import annotations

from memgraph_neo4j.memory.normalize import content_hash
from memgraph_neo4j.repository.base import BATCH
from memgraph_neo4j.repository.entities import alias_spaces, unfolded_aliases
from memgraph_neo4j.repository.entities import fold_alias_keys as fold_page
from memgraph_neo4j.store import GraphStore


def fold_alias_keys(store: GraphStore, space: str | None = None, batch: int = BATCH) -> int:
    """Fold the own-name Alias nodes of `space` (None: of every space) into their entities' key: how many."""
    folded = 0
    for name in [space] if space is not None else alias_spaces(store):
        after = ""
        while page := unfolded_aliases(store, name, after, batch):
            # an Alias naming one entity whose id is its hash: the hash is sha256 (memory/normalize.py),
            # which Cypher has not, so the page is read and checked here
            rows = [{"key": key, "entity_id": ids[0]} for key, ids in page
                    if len(ids) == 1 and content_hash(key) == ids[0]]
            folded += fold_page(store, name, rows)
            after = page[-1][0]
            if len(page) < batch:
                break
    return folded
