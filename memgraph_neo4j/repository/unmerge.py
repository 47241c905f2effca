"""The statements of an unmerge (memory/unmerge.py runs them): what a name merged by similarity is used for,
and one stamped transaction that gives the name its own entity (cypher/memory/unmerge_*)."""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_neo4j.repository.base import Repository
from memgraph_neo4j.repository.batch import WriteBatch
from memgraph_neo4j.repository.entities import EntityRepository, EntityRow, SimilarEdge
from memgraph_neo4j.repository.facts import EvidenceKeys, FactRepository, FactRow


@dataclass(frozen=True)
class MergedName:
    """A name's Alias and the entity it points to, or the entity whose own name it is (`merged_by` None: no
    merge recorded; `unmerged_from`: the entity it was merged into before an unmerge)."""

    key: str
    entity_id: str
    entity: str
    type: str
    aliases: list[str]  # the entity's surface forms
    merged_by: str | None
    evidence: str | None
    merged_with: str | None
    unmerged_from: str | None
    taken: bool  # an entity of the name's own id exists


@dataclass(frozen=True)
class MentionUse:
    passage_id: str
    kept: list[str]  # the other merged names the passage named the entity by
    direct: bool  # it also named the entity by a name of its own


@dataclass
class EntitySplit:
    """What one unmerge writes: the name's own entity, the surface forms it takes from the joined entity,
    the facts made again with it (one row per passage), the evidence and mentions moved, its bridges."""

    entity: EntityRow
    joined_id: str
    surfaces: list[str]
    facts: list[FactRow]
    fact_keys: list[EvidenceKeys]  # the new evidence that still used another merged name
    moved: list[dict]  # {fact_id, passage_id, direct}: evidence the old facts lose
    mentions: list[dict]  # {passage_id, stays, kept, direct}
    renamed: list[dict]  # {id, head, tail, text, embedding}: old facts written through the name
    bridges: list[SimilarEdge]


class UnmergeRepository(Repository):
    def target(self, key: str, own_id: str) -> MergedName | None:
        rows = self.store.read("memory/unmerge_target", space=self.space, key=key, own_id=own_id)
        if not rows:
            return None
        r = rows[0]
        return MergedName(key, r["entity_id"], r["entity"], r["type"], list(r["aliases"] or []), r["merged_by"],
                          r["evidence"], r["merged_with"], r["unmerged_from"], bool(r["taken"]))

    def mentions(self, key: str, entity_id: str) -> list[MentionUse]:
        return [MentionUse(r["passage_id"], list(r["kept"]), bool(r["direct"])) for r in
                self.store.read("memory/unmerge_mentions", space=self.space, key=key, entity_id=entity_id)]

    def evidence(self, key: str, passage_ids: list[str]) -> list[dict]:
        """Per (passage, fact) that named an end by `key`: the fact's fields, the merged names used."""
        return self.store.read("memory/unmerge_evidence", space=self.space, key=key, passage_ids=passage_ids)

    def split(self, key: str, split: EntitySplit) -> int | None:
        """One stamped transaction (repository/batch.py): the new entity keyed by the name (its Alias goes),
        the facts made again, the old evidence and mentions moved (old facts, schemas, ends marked
        Retracting), the bridges. Returns the memory version it made."""
        entities, facts = EntityRepository(self.store, self.space), FactRepository(self.store, self.space)
        batch = WriteBatch(self.store, self.space, stamped=True)
        ids = {"entity_id": split.joined_id, "own_id": split.entity.id}
        facts.add_types(batch, {split.entity.type})
        entities.add_entities(batch, [split.entity], [])
        batch.add("memory/unmerge_alias", key=key, surfaces=split.surfaces, **ids)
        facts.add_facts(batch, split.facts, set())  # MERGE: a fact two passages state is written once
        batch.add_rows("memory/unmerge_move_evidence", split.moved)
        batch.add_rows("memory/unmerge_rename_facts", split.renamed)
        batch.add_rows("memory/unmerge_move_mentions", split.mentions, **ids)
        facts.add_merged_keys(batch, split.fact_keys, [])
        entities.add_bridges(batch, split.bridges)
        batch.commit()
        return batch.version

