"""`Neo4jGuide`: the MemoryGuide backed by the stored memory (stable schemas, canonical entities)."""

from __future__ import annotations

from memgraph_neo4j.contracts import KnownEntity, KnownSchema, SchemaState
from memgraph_neo4j.repository.base import Repository


class Neo4jGuide(Repository):
    """What the memory tells the extractor before each chunk; read-only."""

    def stable_schemas(self, limit: int = 50) -> list[KnownSchema]:
        rows = self.store.read("memory/stable_schemas", space=self.space, limit=limit,
                               stable=SchemaState.STABLE.value)
        return [KnownSchema(**r) for r in rows]

    def known_entities(self, text: str, limit: int = 30) -> list[KnownEntity]:
        words = sorted({w for w in "".join(c if c.isalnum() else " " for c in text).split() if len(w) > 2
                        and w[0].isupper()})
        if not words:
            return []
        query = " OR ".join(words[:200])  # alphanumeric words only: nothing for Lucene to misparse
        lowered = text.casefold()
        found: list[KnownEntity] = []
        for r in self.store.read("memory/known_entities", space=self.space, query=query, fetch=limit * 4,
                                 limit=limit * 4):
            # BM25 finds candidates; keep only entities the chunk really names
            if any(a.casefold() in lowered for a in [r["name"], *(r["aliases"] or [])]):
                found.append(KnownEntity(name=r["name"], type=r["type"], aliases=r["aliases"] or []))
            if len(found) >= limit:
                break
        return found
