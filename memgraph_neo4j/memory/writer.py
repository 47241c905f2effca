"""Writes the global memory: documents, passages, entities, facts, schemas; promotion; bridging.

All writes are batched `UNWIND` statements from cypher/memory/, MERGE on content-hash ids, in
driver-managed transactions: running the same ingest twice changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from memgraph_neo4j.agents.base import ExtractionOutcome, KnownEntity, KnownSchema
from memgraph_neo4j.memory.facts import fact_rows, mentions_of, relation_words
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.resolve import resolve_mentions
from memgraph_neo4j.store import GraphStore

BATCH = 1000


@dataclass
class MemoryConfig:
    merge_threshold: float = 0.9  # cosine above which two names of compatible type are one entity
    resolution: str = "merge"  # "merge" | "link" (SAME_AS edges instead of merging)
    bridge_threshold: float = 0.8  # [0.8] similarity edges between entities
    bridge_k: int = 10  # nearest neighbours considered per entity


@dataclass
class BatchReport:
    facts: int = 0
    dropped_facts: int = 0
    new_entities: int = 0
    failed: int = 0
    promoted: int = 0
    activated: int = 0
    bridges: int = 0


def _embed(embedder, texts: list[str]) -> list[list[float] | None]:
    if embedder is None or not texts:
        return [None] * len(texts)
    # a bar only for big batches (the first passage layer of a corpus), not for every small batch
    return [row.tolist() for row in embedder.embed_documents(texts, show_progress=len(texts) >= 1000)]


class MemoryWriter:
    def __init__(self, store: GraphStore, space: str, ontology: Ontology, embedder=None,
                 config: MemoryConfig | None = None) -> None:
        self.store, self.space, self.ontology = store, space, ontology
        self.embedder = embedder
        self.config = config or MemoryConfig()

    # ----- passage layer -----------------------------------------------------------------------
    def existing_passages(self, ids: list[str]) -> dict[str, str]:
        rows = self.store.read("memory/existing_passages", space=self.space, ids=ids)
        return {r["id"]: r["extraction"] for r in rows}

    def write_documents(self, rows: list[dict]) -> None:
        self.store.write_batched("memory/write_documents", rows, batch_size=BATCH, space=self.space)

    def write_passages(self, rows: list[dict]) -> None:
        """rows: id, doc_id, index, title, text, start, end (embedding added here)."""
        texts = [f"{r['title']}\n{r['text']}" if r.get("title") else r["text"] for r in rows]
        for row, vector in zip(rows, _embed(self.embedder, texts)):
            row["embedding"] = vector
        self.store.write_batched("memory/write_passages", rows, batch_size=500, space=self.space)
        links = [{"from": a["id"], "to": b["id"]} for a, b in zip(rows, rows[1:]) if a["doc_id"] == b["doc_id"]]
        self.store.write_batched("memory/link_next", links, batch_size=BATCH, space=self.space)

    # ----- fact layer --------------------------------------------------------------------------
    def write_outcomes(self, outcomes: list[ExtractionOutcome]) -> BatchReport:
        report = BatchReport()
        resolution = resolve_mentions(self.store, self.space, mentions_of(outcomes, self.ontology),
                                      self.embedder, self.config.merge_threshold, self.config.resolution)
        entity_rows = [
            {"id": e.id, "name": e.name, "type": e.type, "aliases": sorted(e.aliases), "keys": sorted(e.keys),
             "embedding": e.embedding}
            for e in resolution.entities.values()
        ]
        # new entities merged into another new one carry no vector yet; stored ones keep theirs
        missing = [r for r in entity_rows if r["embedding"] is None and resolution.entities[r["id"]].is_new]
        for row, vector in zip(missing, _embed(self.embedder, [r["name"] for r in missing])):
            row["embedding"] = vector
        self.store.write_batched("memory/write_entities", entity_rows, batch_size=BATCH, space=self.space)
        report.new_entities = sum(e.is_new for e in resolution.entities.values())
        if resolution.same_as:
            self.store.write_batched("memory/link_same_as", resolution.same_as, space=self.space)

        rows = fact_rows(outcomes, resolution, self.ontology)
        fact_vectors = _embed(self.embedder, [r["text"] for r in rows.facts])
        schema_texts = {r["schema_id"]: f"{r['head_type']} {relation_words(r['relation'])} {r['tail_type']}"
                        for r in rows.facts}
        schema_vectors = dict(zip(schema_texts, _embed(self.embedder, list(schema_texts.values()))))
        for row, vector in zip(rows.facts, fact_vectors):
            row["embedding"] = vector
            row["schema_embedding"] = schema_vectors[row["schema_id"]]
        self.store.write_batched("memory/write_facts", rows.facts, batch_size=BATCH, space=self.space)
        self.store.write_batched("memory/write_mentions", rows.mentions, batch_size=BATCH * 5, space=self.space)
        report.facts, report.dropped_facts = len(rows.facts), rows.dropped

        marks, usage = [], defaultdict(lambda: {"prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0})
        for o in outcomes:
            skipped = bool(o.error and o.error.startswith("skipped:"))
            state = "ok" if o.ok else ("pending" if skipped else "failed")
            report.failed += state == "failed"
            marks.append({"passage_id": o.passage_id, "state": state, "error": o.error, "attempts": o.attempts,
                          "extractor": o.extractor, "model": o.model})
            u = usage[o.doc_id]
            u["prompt_tokens"] += o.usage.prompt_tokens
            u["completion_tokens"] += o.usage.completion_tokens
            u["cost"] += o.usage.cost
        self.store.write_batched("memory/mark_extraction", marks, batch_size=BATCH, space=self.space)
        self.store.write_batched("memory/record_usage", [{"doc_id": d, **u} for d, u in usage.items()],
                                 batch_size=BATCH, space=self.space)
        if self.embedder is not None:
            vectors = {r["id"]: r["embedding"] for r in entity_rows
                       if resolution.entities[r["id"]].is_new and r["embedding"] is not None}
            report.bridges = self.bridge(vectors)
        return report

    # ----- stage II: promotion -----------------------------------------------------------------
    def promote(self) -> tuple[int, int]:
        """Recount schema support, promote candidates, activate facts. Returns (promoted, activated)."""
        self.store.write("memory/promote_frequency", space=self.space)
        rule = self.ontology.promotion
        if rule.threshold is not None:
            min_frequency = rule.threshold
        else:
            cut = self.store.read("memory/promotion_cutoff", space=self.space,
                                  percentile=(rule.percentile or 0) / 100.0)[0]
            # "drop the lowest p %": promote what lies strictly above the cut-off frequency
            min_frequency = int(cut["cutoff"] or 0) + 1 if rule.percentile else 1
        promoted = self.store.write("memory/promote_schemas", space=self.space, min_frequency=min_frequency,
                                    open=self.ontology.mode == "open")[0]["promoted"]
        activated = self.store.write("memory/activate_facts", space=self.space)[0]["activated"]
        return promoted, activated

    # ----- stage IV: bridging ------------------------------------------------------------------
    def bridge(self, vectors: dict[str, list[float]]) -> int:
        """SIMILAR edges from each new entity to its nearest stored entities with cosine >= threshold.
        Type links need no extra step: entities share Type nodes through HAS_TYPE."""
        if not vectors:
            return 0
        rows = [{"id": i, "vector": v} for i, v in vectors.items()]
        edges: list[dict] = []
        per_id: dict[str, int] = defaultdict(int)
        for start in range(0, len(rows), 500):
            for hit in self.store.read("memory/entity_neighbors", space=self.space, rows=rows[start:start + 500],
                                       fetch=self.config.bridge_k * 3, min_cosine=self.config.bridge_threshold):
                if per_id[hit["id"]] < self.config.bridge_k:
                    per_id[hit["id"]] += 1
                    edges.append({"id": hit["id"], "neighbor": hit["neighbor"], "cosine": hit["cosine"]})
        self.store.write_batched("memory/bridge_similar", edges, batch_size=BATCH, space=self.space)
        return len(edges)


class Neo4jGuide:
    """MemoryGuide backed by the stored memory (stable schemas, canonical entities)."""

    def __init__(self, store: GraphStore, space: str) -> None:
        self.store, self.space = store, space

    def stable_schemas(self, limit: int = 50) -> list[KnownSchema]:
        return [KnownSchema(**r) for r in self.store.read("memory/stable_schemas", space=self.space, limit=limit)]

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
