"""Writes the global memory: documents, passages, entities, facts, schemas; promotion; bridging.

All writes go through the repositories (repository/), batched `UNWIND` statements from
cypher/memory/ that MERGE on content-hash ids (or CREATE what this batch knows to be new) in
driver-managed transactions, one transaction per extraction batch: running the same ingest twice
changes nothing, and a killed one is finished by running it again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memgraph_neo4j.config import MemoryConfig
from memgraph_neo4j.contracts import ExtractionOutcome, ExtractionState, MemoryGuide
from memgraph_neo4j.memory.facts import fact_rows, likely_texts, mentions_of, relation_words
from memgraph_neo4j.memory.lease import version_under_lease
from memgraph_neo4j.memory.neighbours import ExactEntityLookup, SpaceVectors
from memgraph_neo4j.memory.normalize import normalize_entity_name
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.promotion import Demotion, demote_below_bar, promote, promotion_bar
from memgraph_neo4j.memory.resolve import resolve_mentions
from memgraph_neo4j.memory.title_keys import title_key
from memgraph_neo4j.repository.batch import WriteBatch, WriteConflict
from memgraph_neo4j.repository.entities import EntityRepository
from memgraph_neo4j.repository.facts import FactRepository, FactRow
from memgraph_neo4j.repository.guide import Neo4jGuide
from memgraph_neo4j.repository.passages import DocumentRow, DocumentUsage, ExtractionMark, PassageRepository, PassageRow
from memgraph_neo4j.store import GraphStore

if TYPE_CHECKING:
    from memgraph_neo4j.memory.retract import RetractionReport
    from memgraph_neo4j.memory.unmerge import UnmergeReport


@dataclass
class BatchReport:
    facts: int = 0
    dropped_facts: int = 0
    new_entities: int = 0
    failed: int = 0
    promoted: int = 0
    activated: int = 0
    demoted: int = 0  # stable schemas the bar left behind, back to candidate (memory/promotion.demote_below_bar)
    bridges: int = 0


def _embed(embedder, texts: list[str]) -> list[list[float] | None]:
    if embedder is None or not texts:
        return [None] * len(texts)
    # a bar only for big batches (the first passage layer of a corpus), not for every small batch
    return [row.tolist() for row in embedder.embed_documents(texts, show_progress=len(texts) >= 1000)]


def _prepare(rows: list[PassageRow], vectors: list[list[float] | None]) -> None:
    for row, vector in zip(rows, vectors):
        row.embedding = vector
        row.title_key = title_key(row.title)


class MemoryWriter:
    def __init__(self, store: GraphStore, space: str, ontology: Ontology, embedder=None,
                 config: MemoryConfig | None = None) -> None:
        self.space, self.ontology = space, ontology
        self.embedder = embedder
        self.config = config or MemoryConfig()
        self.store = store
        self.passages = PassageRepository(store, space)
        self.entities = EntityRepository(store, space)
        self.facts = FactRepository(store, space)
        self._guide = Neo4jGuide(store, space)
        self.lookup = ExactEntityLookup(self.entities, self.config.exact_neighbours_max,
                                        self.config.approximate_neighbours, self.memory_version)
        # per batch, summed: distinct fact and schema texts, new passages, texts sent to the embedder and
        # vectors of stored facts and schemas read back instead (_embed_batch)
        self.embedding_counts: Counter[str] = Counter()
        # adjudication's candidates by meaning read this copy (api hands it to the adjudicator)
        self.fact_vectors = SpaceVectors(self.facts.fact_vector_pages, self.facts.fact_count,
                                         self.config.exact_neighbours_max, self.config.approximate_neighbours,
                                         self.memory_version)

    def memory_version(self) -> int:
        """The space's memory version: under the space's lease known without a read (2-3 reads of ~5 ms a
        one-message write saves), else read."""
        known = version_under_lease(self.store, self.space)
        return known if known is not None else self.passages.memory_version()

    def retract(self, doc_ids: list[str]) -> RetractionReport:
        """Retract documents (memory/retract.py), under the space's lease (the caller's), and keep this
        writer's copies in step: the entities it deleted (their tombstones) leave the entity copy, and the
        fact copy holds the same vectors (a retraction deletes no fact and changes no fact's vector)."""
        from memgraph_neo4j.memory.retract import retract_documents
        from memgraph_neo4j.repository.documents import DocumentRepository

        since = version_under_lease(self.store, self.space)  # nobody else writes under the lease
        report = retract_documents(DocumentRepository(self.store, self.space), self.facts, self.ontology, doc_ids)
        if self.lookup.vectors.holds(since):
            self.lookup.vectors.moved(since, report.version, self.entities.deleted_since(since))
        self.fact_vectors.moved(since, report.version)
        return report

    def unmerge(self, name: str) -> UnmergeReport:
        """Undo the similarity merge of a name (memory/unmerge.py), under the space's lease (the caller's);
        this writer's copies are read again on next use."""
        from memgraph_neo4j.memory.unmerge import unmerge_name

        return unmerge_name(self, name)

    def guide(self) -> MemoryGuide:
        """What the stored memory tells the extractor (stable schemas, canonical entities)."""
        return self._guide

    # ----- passage layer -----------------------------------------------------------------------
    def existing_passages(self, ids: list[str]) -> dict[str, ExtractionState]:
        return self.passages.existing_passages(ids)

    def write_passages(self, rows: list[PassageRow], documents: list[DocumentRow] = ()) -> None:
        """Documents and passages with their embeddings and title keys (added here), linked by NEXT within a
        document, in stamped transactions of their own (a batch of extractions writes its passages itself)."""
        todo = [r for r in rows if r.embedding is None]  # not embedded ahead (warm)
        _prepare(todo, _embed(self.embedder, [r.embedding_text for r in todo]))
        for version in self.passages.write_passages(rows, list(documents)):  # nothing of the copies' kinds
            self.lookup.vectors.advanced(version)
            self.fact_vectors.advanced(version)

    def warm_passages(self, passages: list[PassageRow]) -> None:
        """The passages' vectors on their rows, ahead of the write: their text is known before the extraction
        ends, so the ingest pipeline embeds them while the batch is still parsed (a one-message write waited
        for the parse, ~17 ms of spaCy, then embedded its passage with the names and fact texts)."""
        if self.embedder is not None:
            todo = [p for p in passages if p.embedding is None]
            _prepare(todo, _embed(self.embedder, [p.embedding_text for p in todo]))

    def warm(self, outcomes: list[ExtractionOutcome]) -> None:
        """Embeds the texts the write of this batch will embed, ahead of it (the ingest pipeline runs this
        beside the previous batch's write, after warm_passages): the names resolution will look up by meaning
        and the likely fact texts (memory/facts.likely_texts) are only kept by the embedder, whose vector of
        a text is a pure function of it. The write then embeds what this missed, so the batch is written as
        without it. One read: which of the batch's names the space holds."""
        if self.embedder is None:
            return
        keys = sorted({k for m in mentions_of(outcomes, self.ontology) if (k := normalize_entity_name(m.name))})
        stored = {hit.key for hit in self.entities.lookup_aliases(keys)} if keys else set()
        names, facts = likely_texts(outcomes, self.ontology, stored)
        if names or facts:  # the vectors are kept by the embedder, not used here
            self.embedder.embed_documents(names + facts, show_progress=False)

    def _embed_batch(self, facts: list[FactRow], passages: list[PassageRow], stored_entities: set[str]) -> None:
        """Embeddings for the batch's facts, schemas and new passages, in one embedding call (the embedder
        sorts them by length). A fact or schema the space already holds keeps the embedding it was created
        with: write_facts / write_schemas set it only ON CREATE, and the fact copy adds only ids it lacks, so
        such a row's vector is never stored; it comes without the model, across batches and runs:
        - facts: only one between two stored entities can be stored (fact ids hash the entity ids); those the
          fact copy holds at the version this writer's lease knows take the copy's row, the rest are read
          back (memory/stored_text_vectors); a stored fact whose text differs (its entity renamed since) is
          embedded;
        - schemas: a text the embedder kept from an earlier call costs no model run; the others are read back.
        A one-message write whose facts and schemas all come so reads nothing (one read, ~3-5 ms, saved)."""
        schema_texts = {r.schema_id: f"{r.head_type} {relation_words(r.relation)} {r.tail_type}" for r in facts}
        held_facts, held_schemas, copied, kept = {}, {}, {}, set()
        if self.embedder is not None:
            maybe = sorted({f.id for f in facts if f.head_id in stored_entities and f.tail_id in stored_entities})
            copied = self.fact_vectors.held(maybe, version_under_lease(self.store, self.space))
            holds = getattr(self.embedder, "holds", None)  # Embedder's; an embedder of one's own may lack it
            kept = {sid for sid, text in schema_texts.items() if holds is not None and holds(text)}
            held_facts, held_schemas = self.facts.stored_vectors([i for i in maybe if i not in copied],
                                                                 sorted(set(schema_texts) - kept))
        fact_vectors = {f.id: held[1] for f in facts if (held := held_facts.get(f.id)) and held[0] == f.text}
        fact_vectors.update(copied)
        texts = {f.text: None for f in facts if f.id not in fact_vectors}  # a text once per call
        texts.update({text: None for sid, text in schema_texts.items() if sid not in held_schemas})
        todo = [p for p in passages if p.embedding is None]  # not embedded ahead (warm)
        vectors = _embed(self.embedder, list(texts) + [p.embedding_text for p in todo])
        embedded = dict(zip(texts, vectors))
        self.embedding_counts.update(facts=len({f.text for f in facts}), schemas=len(schema_texts),
                                     passages=len(passages), embedded=len(vectors) + len(passages) - len(todo),
                                     reused=len(fact_vectors) + len(held_schemas) + len(kept))
        _prepare(todo, vectors[len(texts):])
        for row in facts:
            row.embedding = fact_vectors[row.id] if row.id in fact_vectors else embedded[row.text]
            row.schema_embedding = held_schemas.get(row.schema_id) or embedded[schema_texts[row.schema_id]]

    # ----- fact layer --------------------------------------------------------------------------
    def write_batch(self, outcomes: list[ExtractionOutcome], promote: bool = True,
                    documents: list[DocumentRow] = (), passages: list[PassageRow] = ()) -> BatchReport:
        """Everything one batch of extractions changes, in ONE write transaction: its `documents` and new
        `passages` (embedded here), types, entities, schemas, facts, mentions, SIMILAR bridges, extraction
        marks, token usage, document status, then (`promote`) stage II and the memory version. A kill
        leaves the whole batch or none of it, and its passages stay `pending` (or unwritten) until it
        commits: the next run redoes exactly the batches not committed. One transaction, not three (the
        documents, the passages, the batch): each commit updates the Lucene-backed indexes it touches, ~7 ms
        per index and commit measured on a one-message write (benchmarks/write_breakdown.py).
        Reads come first (aliases, one vector look-up for resolution and bridging)."""
        report = BatchReport()
        bridge = (self.config.bridge_k, self.config.bridge_threshold) if self.embedder is not None else None
        resolution = resolve_mentions(self.lookup, mentions_of(outcomes, self.ontology), self.embedder,
                                      self.config.merge_threshold, self.config.resolution, bridge=bridge,
                                      evidence=self.config.merge_evidence)
        rows = fact_rows(outcomes, resolution, self.ontology)
        entities = resolution.entities
        passages = list(passages)
        self._embed_batch(rows.facts, passages, {i for i, e in entities.items() if not e.is_new})
        new_ids = {i for i, e in entities.items() if e.is_new}
        report.new_entities = len(new_ids)
        report.facts, report.dropped_facts = len(rows.facts), rows.dropped
        report.bridges = len(resolution.bridges)

        marks: list[ExtractionMark] = []
        usage: dict[str, DocumentUsage] = {}
        for o in outcomes:
            report.failed += o.passage_state is ExtractionState.FAILED
            marks.append(ExtractionMark(o.passage_id, o.passage_state, o.error, o.attempts, o.extractor, o.model))
            u = usage.setdefault(o.doc_id, DocumentUsage(o.doc_id))
            u.prompt_tokens += o.usage.prompt_tokens
            u.completion_tokens += o.usage.completion_tokens
            u.cost += o.usage.cost

        def statements(fast: bool) -> tuple[WriteBatch, int | None]:
            # promoting: a new version, first, stamped on what the batch touches (repository/batch.py)
            batch = WriteBatch(self.store, self.space, stamped=promote)
            created = new_ids if fast else set()
            if promote:
                self.facts.add_recount_of_earlier(batch)
            self.passages.add_passages(batch, passages, list(documents))
            self.facts.add_types(batch, {e.type for e in entities.values()}
                                 | {t for f in rows.facts for t in (f.head_type, f.tail_type)})
            self.entities.add_entities(batch, [entities[i].row() for i in sorted(created)],
                                       [e.row() for i, e in entities.items() if i not in created and e.changed])
            self.entities.add_same_as(batch, resolution.same_as)
            new_facts = {f.id for f in rows.facts if f.head_id in created or f.tail_id in created}
            self.facts.add_facts(batch, rows.facts, new_facts)
            self.facts.add_mentions(batch, rows.mentions, created)
            self.facts.add_merged_keys(batch, rows.evidence_keys, rows.mention_keys)
            self.entities.add_bridges(batch, resolution.bridges)
            self.passages.add_marks(batch, marks, list(usage.values()))
            promotion = None
            if promote:
                promotion = self.facts.add_promotion(batch, *promotion_bar(self.ontology),
                                                     open_world=self.ontology.mode == "open")
            return batch, promotion

        batch, promotion = statements(fast=True)
        try:
            results = batch.commit()
            created = [entities[i] for i in sorted(new_ids)]
            self.lookup.vectors.written([e.id for e in created], [e.type for e in created],
                                        [e.embedding for e in created], batch.version)
            self.fact_vectors.written([f.id for f in rows.facts], [None] * len(rows.facts),
                                      [f.embedding for f in rows.facts], batch.version)
        except WriteConflict:  # another writer created one of "our" new entities first: merge instead
            self.lookup.vectors.invalidate()
            self.fact_vectors.invalidate()
            batch, promotion = statements(fast=False)
            results = batch.commit()
        if promotion is not None:
            row = results[promotion][0]
            report.promoted, report.activated = row["promoted"], row["activated"]
            if row["below"]:  # the percentile's cutoff rose over stable schemas (or a refine took support)
                report.demoted = self.demote(row["min_frequency"]).schemas
        return report

    # ----- stage II: promotion -----------------------------------------------------------------
    def promote_written(self) -> tuple[int, int]:
        """Stage II for the facts written without it (a killed run's), as one stamped transaction: the
        copies of retrieval follow it through the change feed instead of reading the space again."""
        batch = WriteBatch(self.store, self.space, stamped=True)
        self.facts.add_recount_of_earlier(batch)
        index = self.facts.add_promotion(batch, *promotion_bar(self.ontology), open_world=self.ontology.mode == "open")
        results = batch.commit()
        self.lookup.vectors.advanced(batch.version)  # states changed, no vector: the copies hold it all
        self.fact_vectors.advanced(batch.version)
        if results[index][0]["below"]:
            self.demote(results[index][0]["min_frequency"])
        return results[index][0]["promoted"], results[index][0]["activated"]

    def promote(self, full: bool = False) -> tuple[int, int]:
        """Recount schema support, promote candidates, activate facts, demote what the bar left behind.
        Returns (promoted, activated). Only the schemas and facts written since the last promotion are
        looked at, unless `full`."""
        done = promote(self.facts, self.ontology, full=full)
        self.demote()
        return done

    def demote(self, bar: int | None = None) -> Demotion:
        """Stable schemas under the promotion bar (`bar`: the one the promotion just computed) back to
        candidate, their conflicts closed first (memory/promotion.demote_below_bar)."""
        done = demote_below_bar(self.facts, self.ontology, bar)
        for version in done.versions:  # states changed, no vector: the copies hold it all
            self.lookup.vectors.advanced(version)
            self.fact_vectors.advanced(version)
        return done
