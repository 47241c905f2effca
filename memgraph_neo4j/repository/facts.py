"""Facts, their schemas and the passages that mention entities; stage II promotion
(cypher/memory/write_facts, write_mentions, promote_*, promotion_cutoff, activate_facts)."""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_neo4j.contracts import FactState, SchemaState
from memgraph_neo4j.repository.base import BATCH, Repository


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


@dataclass(frozen=True, order=True)
class MentionRow:
    passage_id: str
    entity_id: str


class FactRepository(Repository):
    def write_facts(self, rows: list[FactRow]) -> None:
        self._write_rows("memory/write_facts", rows)

    def write_mentions(self, rows: list[MentionRow]) -> None:
        self._write_rows("memory/write_mentions", rows, BATCH * 5)

    # ----- promotion ---------------------------------------------------------------------------
    def promote_frequency(self) -> int:
        """Recount each schema's frequency (distinct supporting passages); returns the schema count."""
        return self.store.write("memory/promote_frequency", space=self.space)[0]["schemas"]

    def promotion_cutoff(self, percentile: float) -> int:
        """Frequency at `percentile` (0..1) of the undeclared schemas; 0 when there are none."""
        row = self.store.read("memory/promotion_cutoff", space=self.space, percentile=percentile)[0]
        return int(row["cutoff"] or 0)

    def promote_schemas(self, min_frequency: int, open_world: bool) -> int:
        """Candidates with frequency >= min_frequency become stable (undeclared ones only if open)."""
        return self.store.write("memory/promote_schemas", space=self.space, min_frequency=min_frequency,
                                open=open_world, candidate=SchemaState.CANDIDATE.value,
                                stable=SchemaState.STABLE.value)[0]["promoted"]

    def activate_facts(self) -> int:
        """Pending facts of stable schemas become active; returns how many."""
        return self.store.write("memory/activate_facts", space=self.space, pending=FactState.PENDING.value,
                                active=FactState.ACTIVE.value, stable=SchemaState.STABLE.value)[0]["activated"]
