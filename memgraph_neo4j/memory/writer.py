"""Writes the global memory: documents, passages, entities, facts, schemas; promotion; bridging.

All writes go through the repositories (repository/), batched `UNWIND` statements from
cypher/memory/ that MERGE on content-hash ids in driver-managed transactions: running the same
ingest twice changes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from memgraph_neo4j.config import MemoryConfig
from memgraph_neo4j.contracts import ExtractionOutcome, ExtractionState, MemoryGuide
from memgraph_neo4j.memory.facts import fact_rows, mentions_of, relation_words
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.promotion import promote
from memgraph_neo4j.memory.resolve import resolve_mentions
from memgraph_neo4j.repository.entities import EntityRepository, SimilarEdge, VectorQuery
from memgraph_neo4j.repository.facts import FactRepository
from memgraph_neo4j.repository.guide import Neo4jGuide
from memgraph_neo4j.repository.passages import DocumentRow, DocumentUsage, ExtractionMark, PassageRepository, PassageRow
from memgraph_neo4j.store import GraphStore

NEIGHBOR_QUERIES = 500  # entity vectors per nearest-neighbour read while bridging


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
        self.space, self.ontology = space, ontology
        self.embedder = embedder
        self.config = config or MemoryConfig()
        self.passages = PassageRepository(store, space)
        self.entities = EntityRepository(store, space)
        self.facts = FactRepository(store, space)
        self._guide = Neo4jGuide(store, space)

    def guide(self) -> MemoryGuide:
        """What the stored memory tells the extractor (stable schemas, canonical entities)."""
        return self._guide

    # ----- passage layer -----------------------------------------------------------------------
    def existing_passages(self, ids: list[str]) -> dict[str, ExtractionState]:
        return self.passages.existing_passages(ids)

    def write_documents(self, rows: list[DocumentRow]) -> None:
        self.passages.write_documents(rows)

    def write_passages(self, rows: list[PassageRow]) -> None:
        """Passages with their embeddings (added here), linked by NEXT within a document."""
        for row, vector in zip(rows, _embed(self.embedder, [r.embedding_text for r in rows])):
            row.embedding = vector
        self.passages.write_passages(rows)

    def bump_version(self) -> int:
        """Marks the memory changed: the PPR projection and retrieval snapshots are stale now."""
        return self.passages.bump_version()

    # ----- fact layer --------------------------------------------------------------------------
    def write_outcomes(self, outcomes: list[ExtractionOutcome]) -> BatchReport:
        report = BatchReport()
        resolution = resolve_mentions(self.entities, mentions_of(outcomes, self.ontology), self.embedder,
                                      self.config.merge_threshold, self.config.resolution)
        entity_rows = [e.row() for e in resolution.entities.values()]
        # new entities merged into another new one carry no vector yet; stored ones keep theirs
        missing = [r for r in entity_rows if r.embedding is None and resolution.entities[r.id].is_new]
        for row, vector in zip(missing, _embed(self.embedder, [r.name for r in missing])):
            row.embedding = vector
        rows = fact_rows(outcomes, resolution, self.ontology)
        self.facts.write_types({r.type for r in entity_rows}
                               | {t for f in rows.facts for t in (f.head_type, f.tail_type)})
        self.entities.write_entities(entity_rows)
        report.new_entities = sum(e.is_new for e in resolution.entities.values())
        if resolution.same_as:
            self.entities.link_same_as(resolution.same_as)

        fact_vectors = _embed(self.embedder, [r.text for r in rows.facts])
        schema_texts = {r.schema_id: f"{r.head_type} {relation_words(r.relation)} {r.tail_type}"
                        for r in rows.facts}
        schema_vectors = dict(zip(schema_texts, _embed(self.embedder, list(schema_texts.values()))))
        for row, vector in zip(rows.facts, fact_vectors):
            row.embedding = vector
            row.schema_embedding = schema_vectors[row.schema_id]
        self.facts.write_facts(rows.facts)
        self.facts.write_mentions(rows.mentions)
        report.facts, report.dropped_facts = len(rows.facts), rows.dropped

        marks: list[ExtractionMark] = []
        usage: dict[str, DocumentUsage] = {}
        for o in outcomes:
            report.failed += o.passage_state is ExtractionState.FAILED
            marks.append(ExtractionMark(o.passage_id, o.passage_state, o.error, o.attempts, o.extractor, o.model))
            u = usage.setdefault(o.doc_id, DocumentUsage(o.doc_id))
            u.prompt_tokens += o.usage.prompt_tokens
            u.completion_tokens += o.usage.completion_tokens
            u.cost += o.usage.cost
        self.passages.mark_extraction(marks)
        self.passages.record_usage(list(usage.values()))
        if self.embedder is not None:
            vectors = {r.id: r.embedding for r in entity_rows
                       if resolution.entities[r.id].is_new and r.embedding is not None}
            report.bridges = self.bridge(vectors)
        return report

    # ----- stage II: promotion -----------------------------------------------------------------
    def promote(self, full: bool = False) -> tuple[int, int]:
        """Recount schema support, promote candidates, activate facts. Returns (promoted, activated).
        Only the schemas and facts written since the last promotion are looked at, unless `full`."""
        return promote(self.facts, self.ontology, full=full)

    # ----- stage IV: bridging ------------------------------------------------------------------
    def bridge(self, vectors: dict[str, list[float]]) -> int:
        """SIMILAR edges from each new entity to its nearest stored entities with cosine >= threshold.
        Type links need no extra step: entities share Type nodes through HAS_TYPE."""
        if not vectors:
            return 0
        queries = [VectorQuery(i, v) for i, v in vectors.items()]
        edges: list[SimilarEdge] = []
        per_id: dict[str, int] = defaultdict(int)
        for start in range(0, len(queries), NEIGHBOR_QUERIES):
            for hit in self.entities.entity_neighbors(queries[start:start + NEIGHBOR_QUERIES],
                                                      fetch=self.config.bridge_k * 3,
                                                      min_cosine=self.config.bridge_threshold):
                if per_id[hit.id] < self.config.bridge_k:
                    per_id[hit.id] += 1
                    edges.append(SimilarEdge(hit.id, hit.neighbor, hit.cosine))
        self.entities.bridge_similar(edges)
        return len(edges)
