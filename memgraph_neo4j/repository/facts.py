"""Facts, their schemas and the passages that mention entities; stage II promotion
(cypher/memory/write_facts, write_mentions, promote_*, promotion_cutoff, activate_facts)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from memgraph_neo4j.contracts import ConflictStatus, FactState, SchemaState, supporting
from memgraph_neo4j.repository.base import BATCH, Repository, VectorPage, store_rows
from memgraph_neo4j.repository.batch import WriteBatch


@dataclass
class FactRow:
    """One fact grounded in one passage, with the schema it instantiates (created if new)."""

    id: str  # content hash of head id, relation, tail id, time
    passage_id: str
    head_id: str
    tail_id: str
    head: str
    tail: str
    relation: str
    relation_raw: str
    time: str | None
    text: str
    head_type: str
    tail_type: str
    schema_id: str  # content hash of head type, relation, tail type
    declared: bool  # the ontology declares this schema
    schema_state: SchemaState  # of a schema created by this row
    state: FactState  # of a fact created by this row
    extractor: str
    model: str | None
    prompt_version: str | None
    ontology_version: str
    embedding: list[float] | None = None
    schema_embedding: list[float] | None = None
    # the time qualifier's interval (memory/timespan.py time_interval): valid_at <= t < invalid_at
    valid_at: datetime | None = None
    invalid_at: datetime | None = None


@dataclass(frozen=True, order=True)
class MentionRow:
    passage_id: str
    entity_id: str


@dataclass(frozen=True)
class EvidenceKeys:
    """A passage stated a fact naming an end by a name merged by similarity (memory/resolve.py): the merged
    names used (None: that end was named otherwise), stored on its EVIDENCED_BY so the merge can be undone
    (memory/unmerge.py). `direct`: it also stated the fact without one (True, else None: not stored)."""

    fact_id: str
    passage_id: str
    head_key: str | None
    tail_key: str | None
    direct: bool | None = None


@dataclass(frozen=True)
class MentionKeys:
    """The merged names a passage named an entity by, stored on its MENTIONS (`direct` as EvidenceKeys)."""

    passage_id: str
    entity_id: str
    merged_keys: list[str]
    direct: bool | None = None


@dataclass(frozen=True)
class SchemaRow:
    """One distinct schema of a batch (the first fact row that names it gives its fields)."""

    schema_id: str
    head_type: str
    relation: str
    tail_type: str
    declared: bool
    schema_state: SchemaState
    schema_embedding: list[float] | None = None


def schema_rows(facts: list[FactRow]) -> list[SchemaRow]:
    rows: dict[str, SchemaRow] = {}
    for f in facts:
        if f.schema_id not in rows:
            rows[f.schema_id] = SchemaRow(f.schema_id, f.head_type, f.relation, f.tail_type, f.declared,
                                          f.schema_state, f.schema_embedding)
    return list(rows.values())


def new_fact_maps(facts: list[FactRow]) -> list[dict]:
    """One parameter map per distinct new fact, with every passage of the batch that evidences it."""
    out: dict[str, dict] = {}
    for f, m in zip(facts, store_rows(facts)):
        row = out.get(f.id)
        if row is None:
            row = out[f.id] = m
            row["passage_ids"] = []
        row["passage_ids"].append(f.passage_id)
    return list(out.values())


def promotion_params(threshold: int | None, percentile: float | None, open_world: bool) -> dict:
    """The bar of promote_and_activate: a fixed threshold, else the percentile rule (0..1), else 1."""
    return dict(threshold=threshold, percentile=percentile if threshold is None else None, open=open_world,
                **_STATES)


_STATES = dict(pending=FactState.PENDING.value, active=FactState.ACTIVE.value,
               candidate=SchemaState.CANDIDATE.value, stable=SchemaState.STABLE.value)


class FactRepository(Repository):
    def fact_vector_pages(self) -> Iterator[VectorPage]:
        """Pages of (ids, None per fact, embeddings) of the facts of the space that have an embedding, in id
        order (repository/base.py: why paged)."""
        return self._vector_pages("memory/fact_vectors")

    def stored_vectors(self, fact_ids: list[str], schema_ids: list[str]
                       ) -> tuple[dict[str, tuple[str, list[float]]], dict[str, list[float]]]:
        """What the space holds of these ids: fact id -> (text, embedding), schema id -> embedding."""
        if not fact_ids and not schema_ids:
            return {}, {}
        [row] = self.store.read("memory/stored_text_vectors", space=self.space, fact_ids=fact_ids,
                                schema_ids=schema_ids)
        return ({r["id"]: (r["text"], r["embedding"]) for r in row["facts"]},
                {r["id"]: r["embedding"] for r in row["schemas"]})

    def fact_count(self) -> int:
        return self.store.read("memory/fact_count", space=self.space)[0]["facts"]

    def write_types(self, types: set[str]) -> None:
        """The Type nodes that entity, schema and fact rows then MATCH (once per batch)."""
        if types:
            self.store.write("memory/write_types", space=self.space, types=sorted(types), stamp=None)

    def write_facts(self, rows: list[FactRow]) -> None:
        """Schemas first (one row each), then the facts; both need their Types written (write_types)."""
        self._write_rows("memory/write_schemas", schema_rows(rows))
        self._write_rows("memory/write_facts", rows, retracted=FactState.RETRACTED.value)  # memory/retract.py

    def write_mentions(self, rows: list[MentionRow]) -> None:
        self._write_rows("memory/write_mentions", rows, BATCH * 5)

    # ----- the same, as statements of one batch's transaction (repository/batch.py) -------------
    def add_types(self, batch: WriteBatch, types: set[str]) -> None:
        if types:
            batch.add("memory/write_types", types=sorted(types))

    def add_facts(self, batch: WriteBatch, rows: list[FactRow], new: set[str]) -> None:
        """Schemas, then facts: those whose id is in `new` (an end is a new entity, so the fact cannot be
        stored yet) are created with all their passages at once, the others merged."""
        batch.add_rows("memory/write_schemas", schema_rows(rows))
        batch.add_rows("memory/create_facts", new_fact_maps([r for r in rows if r.id in new]))
        batch.add_rows("memory/write_facts", [r for r in rows if r.id not in new],
                       retracted=FactState.RETRACTED.value)

    def add_mentions(self, batch: WriteBatch, rows: list[MentionRow], new_entities: set[str]) -> None:
        batch.add_rows("memory/create_mentions", [r for r in rows if r.entity_id in new_entities])
        batch.add_rows("memory/write_mentions", [r for r in rows if r.entity_id not in new_entities])

    def add_merged_keys(self, batch: WriteBatch, evidence: list[EvidenceKeys], mentions: list[MentionKeys]) -> None:
        """After add_facts and add_mentions: the merged names used, on the evidence and mentions that used
        them (none in the common case: no statement)."""
        batch.add_rows("memory/write_evidence_keys", evidence)
        batch.add_rows("memory/write_mention_keys", mentions)

    def add_recount_of_earlier(self, batch: WriteBatch) -> None:
        """The first statement of a batch that promotes, before its writes: the schemas of facts an earlier
        transaction left Unpromoted recounted whole, so that add_promotion's delta starts from exact counts."""
        if batch.stamp is not None:
            batch.add("memory/promote_frequency_stale", supporting=supporting())

    def add_promotion(self, batch: WriteBatch, threshold: int | None, percentile: float | None,
                      open_world: bool) -> int:
        """Stage II at the end of the batch's transaction (it sees the batch's facts); returns the index of
        the promote_and_activate result ({promoted, activated})."""
        if batch.stamp is None:  # no stamp tells this batch's writes apart: the touched schemas recounted whole
            batch.add("memory/promote_frequency_of", supporting=supporting())
        else:  # O(what the batch wrote), not O(the schemas' facts): needs add_recount_of_earlier first
            batch.add("memory/promote_frequency_delta", supporting=supporting())
        return batch.add("memory/promote_and_activate", **promotion_params(threshold, percentile, open_world))

    # ----- promotion ---------------------------------------------------------------------------
    def promote_frequency(self, full: bool = False) -> int:
        """Recount the frequency (distinct supporting passages) of the schemas of the facts written since
        the last promotion (`full`: of every schema); returns how many were recounted."""
        name = "memory/promote_frequency" if full else "memory/promote_frequency_of"
        return self.store.write(name, space=self.space, supporting=supporting())[0]["schemas"]

    def has_unpromoted(self) -> bool:
        """Facts written since the last promotion wait for it (a run was killed in between)."""
        return bool(self.store.read("memory/unpromoted_exists", space=self.space)[0]["waiting"])

    def promotion_cutoff(self, percentile: float) -> int:
        """Frequency at `percentile` (0..1) of the undeclared schemas; 0 when there are none."""
        row = self.store.read("memory/promotion_cutoff", space=self.space, percentile=percentile)[0]
        return int(row["cutoff"] or 0)

    def promote_and_activate(self, threshold: int | None, percentile: float | None,
                             open_world: bool) -> tuple[int, int]:
        """One transaction: candidates at or above the bar (`threshold`, else one above the frequency at
        `percentile` (0..1) of the undeclared schemas, else 1) become stable (undeclared ones only if open);
        the new facts of stable schemas and the pending facts of the schemas promoted now become active.
        Returns (schemas promoted, facts activated)."""
        row = self.store.write("memory/promote_and_activate", space=self.space, stamp=None,
                               **promotion_params(threshold, percentile, open_world))[0]
        return row["promoted"], row["activated"]

    # ----- demotion (memory/promotion.demote_below_bar) ----------------------------------------
    def stable_below(self, min_frequency: int, open_world: bool) -> list[str]:
        """Stable schemas under the bar, support counted with the facts a verdict moved off it (open world;
        a strict ontology's stay stable by declaration)."""
        return [r["id"] for r in self.store.read("memory/stable_below_bar", space=self.space, open=open_world,
                                                 min_frequency=min_frequency, stable=SchemaState.STABLE.value,
                                                 supporting=supporting())]

    def demotion_conflicts(self, schemas: list[str]) -> tuple[list[str], list[str]]:
        """(the open conflicts of facts of these schemas, the schemas whose support undoing their verdicts
        moves)."""
        rows = self.store.read("memory/demotion_conflicts", space=self.space, ids=schemas,
                               obsolete=ConflictStatus.OBSOLETE.value)
        return [r["id"] for r in rows], sorted({s for r in rows for s in r["schemas"]})

    def close_conflicts(self, ids: list[str], schemas: list[str]) -> tuple[int, int | None]:
        """One stamped transaction: the conflicts' verdicts undone and the conflicts obsolete, the schemas
        recounted, the conflicts' active facts queued for a new check. (conflicts closed, memory version)."""
        batch = WriteBatch(self.store, self.space, stamped=True)
        closed = batch.add("adjudication/revert_conflicts", ids=ids, status=ConflictStatus.OBSOLETE.value)
        batch.add("memory/recount_schemas", ids=schemas, supporting=supporting())
        batch.add("memory/retract_recheck", ids=ids, active=FactState.ACTIVE.value)
        results = batch.commit()
        return results[closed][0]["reverted"], batch.version

    def demote(self, schemas: list[str]) -> tuple[int, int, int | None]:
        """One stamped transaction: these stable schemas to candidate, their active facts to pending.
        (schemas demoted, facts made pending, memory version)."""
        batch = WriteBatch(self.store, self.space, stamped=True)
        index = batch.add("memory/demote_below_bar", ids=schemas, **_STATES)
        row = batch.commit()[index][0]
        return row["schemas"], row["facts"], batch.version

    def activate_facts(self) -> int:
        """Every pending fact of a stable schema becomes active (the full pass); returns how many."""
        return self.store.write("memory/activate_facts", space=self.space, **_STATES)[0]["activated"]
