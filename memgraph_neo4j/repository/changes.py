"""What changed in one space since a memory version, as the retrieval copies apply it (retrieval/changes.py).

Stamped writes (repository/batch.py) set `changed = <their version>` on every node they touch, and a
retraction leaves a Tombstone (space, kind, id, changed) for every passage and entity it deletes
(cypher/memory/retract_passages, retract_entities); this reads those nodes and tombstones back, whole, in
one read transaction: the memory state, the changed nodes of each label, the tombstones, the state again.
Read committed lets a write commit in between; then the two states differ, or a row carries a stamp above
the first, and the caller reads again. A node deleted and created again since (a document retracted and
ingested again) is a changed node, not a removal: the node that exists now wins. Tombstones are pruned
(cypher/memory/prune_tombstones): a copy older than the newest pruned one is read whole. The graph of a
whole space by owner (the PPR copy's first read, retrieval/ppr/graph_copy.py) is read here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.repository.base import Repository

LABELS = ("facts", "schemas", "passages", "entities", "types")


@dataclass(frozen=True, slots=True)
class ChangedFact:
    id: str
    state: str | None
    relation: str | None
    head_id: str | None  # None: the fact lost its subject (it then has no edge and no layer row)
    tail_id: str | None
    text: str | None = None
    embedding: list[float] | None = None


@dataclass(frozen=True, slots=True)
class ChangedSchema:
    id: str
    state: str | None
    head_type: str | None
    relation: str | None
    tail_type: str | None
    embedding: list[float] | None = None


@dataclass(frozen=True, slots=True)
class ChangedPassage:
    id: str
    title: str | None
    mentions: tuple[str, ...]  # the entities it mentions, one per MENTIONS relationship
    text: str | None = None
    located: bool = False  # it has a page or heading, or is an episode (speaker and time)
    embedding: list[float] | None = None


@dataclass(frozen=True, slots=True)
class ChangedEntity:
    id: str
    name: str | None
    types: tuple[str, ...]
    similar: tuple[tuple[str, float], ...]  # SIMILAR bridges out of it: (other entity, weight)
    type_degree: tuple[tuple[str, int], ...] = ()  # its types' entity counts now (seed statistics)


@dataclass
class Changes:
    """Every node of the space stamped in (since, version], and every node deleted then: the copies at
    `since` apply these to reach `version`. Rows are the nodes as they are now (an upsert); `removed_*`
    are the ids of nodes gone now (none of them is among the rows)."""

    since: int
    version: int
    complete: bool = True  # False: an unstamped write or too many rows since: read everything again
    facts: list[ChangedFact] = field(default_factory=list)
    schemas: list[ChangedSchema] = field(default_factory=list)
    passages: list[ChangedPassage] = field(default_factory=list)
    entities: list[ChangedEntity] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    type_degree: list[tuple[str, int]] = field(default_factory=list)  # the changed types' entities now
    removed_passages: list[str] = field(default_factory=list)  # deleted (tombstones), not created again
    removed_entities: list[str] = field(default_factory=list)
    # what the space counts (repository/statistics.py SpaceCounts) gained: nodes created in (since, version]
    new_facts: int = 0
    new_schemas: int = 0
    new_passages: int = 0
    new_located: int = 0
    passages_rewritten: bool = False  # a stamped passage that existed before (its provenance may have moved)
    # what the space counts lost: passages deleted in (since, version] that existed at `since`
    gone_passages: int = 0
    gone_located: int = 0
    deleted_twice: bool = False  # a node deleted twice since: whether it existed at `since` is not known
    mentions: int | None = None  # MENTIONS relationships of the whole database at `version` (count store)

    def __len__(self) -> int:
        return sum(len(getattr(self, label)) for label in LABELS) + len(self.removed_passages) + len(
            self.removed_entities)


class Retry(Exception):
    """A write committed while the changes were read: read them again."""


class ChangeRepository(Repository):
    def state(self) -> tuple[int, int]:
        """(memory version, the last version written unstamped)."""
        row = self.store.read("retrieval/changes_state", space=self.space)[0]
        return row["version"], row["full"]

    def epoch(self) -> str | None:
        """This incarnation of the space (cypher/memory/bump_version), None before its first write."""
        return self.store.read("retrieval/changes_state", space=self.space)[0]["epoch"]

    def ensure_epoch(self) -> str | None:
        """The epoch, set now for a space written before epochs existed; None: the space was never written."""
        rows = self.store.write("memory/ensure_epoch", space=self.space)
        return rows[0]["epoch"] if rows else None

    def since(self, since: int, limit: int) -> Changes:
        """The changes after version `since`, at most `limit` rows per label (more: not `complete`).
        Raises Retry when a write committed during the read."""
        kinds = (*LABELS, "tombstones")
        read = self.store.read("retrieval/changes_since", space=self.space, since=since, limit=limit + 1,
                               vectors=True)[0]  # one round trip (seven statements cost ~14 ms)
        first, last = read["first"], read["last"]
        version = first["version"]
        if (last["version"], last["pruned"]) != (version, first["pruned"]):
            raise Retry(f"version {version} became {last['version']} during the read")
        rows = {label: read[label] for label in kinds}
        if any(r["changed"] > version for label in kinds for r in rows[label]):
            raise Retry(f"a row stamped after version {version}")
        changes = Changes(since, version)
        if max(first["full"], first["pruned"]) > since or any(len(rows[label]) > limit for label in kinds):
            changes.complete = False
            return changes
        changes.facts = [_fact(r) for r in rows["facts"]]
        changes.schemas = [ChangedSchema(r["id"], r["state"], r["head_type"], r["relation"], r["tail_type"],
                                         r["embedding"]) for r in rows["schemas"]]
        changes.passages = [ChangedPassage(r["id"], r["title"], tuple(r["mentions"]), r["text"], r["located"],
                                           r["embedding"]) for r in rows["passages"]]
        changes.entities = [ChangedEntity(r["id"], r["name"], tuple(t for t, _ in r["types"]),
                                          tuple((b, float(w)) for b, w in r["similar"]),
                                          tuple((t, int(n)) for t, n in r["types"])) for r in rows["entities"]]
        changes.types = [r["id"] for r in rows["types"]]
        changes.type_degree = [(r["id"], int(r["degree"])) for r in rows["types"]]
        _removed(changes, rows["tombstones"])
        changes.new_facts = sum(r["new"] for r in rows["facts"])
        changes.new_schemas = sum(r["new"] for r in rows["schemas"])
        changes.new_passages = sum(r["new"] for r in rows["passages"])
        changes.new_located = sum(r["new"] and r["located"] for r in rows["passages"])
        changes.passages_rewritten = not all(r["new"] for r in rows["passages"])
        changes.mentions = first.get("mentions")
        return changes

    def graph(self) -> Changes:
        """The whole PPR graph of the space by owner, as changes since the beginning (no vectors, no texts)."""
        results = self.store.read_many([("retrieval/changes_state", {"space": self.space}),
                                        *((f"retrieval/graph_{label}", {"space": self.space})
                                          for label in ("facts", "passages", "entities", "types"))])
        version = results[0][0]["version"]
        facts, passages, entities, types = results[1:]
        return Changes(
            -1, version, True, [_fact(r) for r in facts], [],
            [ChangedPassage(r["id"], r["title"], tuple(r["mentions"])) for r in passages],
            [ChangedEntity(r["id"], r["name"], tuple(r["types"]), tuple((b, float(w)) for b, w in r["similar"]))
             for r in entities],
            [r["id"] for r in types])


def _removed(changes: Changes, tombstones: list[dict[str, Any]]) -> None:
    """The tombstones as removals (a node that exists now was created again after it: the node wins) and
    what the counts lost (a passage created again counts as new and as gone: the two cancel)."""
    alive = {"passage": {p.id for p in changes.passages}, "entity": {e.id for e in changes.entities}}
    removed = {"passage": changes.removed_passages, "entity": changes.removed_entities}
    for r in tombstones:
        if r["kind"] in alive and r["id"] not in alive[r["kind"]]:
            removed[r["kind"]].append(r["id"])
        if r["kind"] == "passage":  # what the counts count (entities they do not)
            changes.gone_passages += bool(r["old"])
            changes.gone_located += bool(r["old"] and r["located"])
            changes.deleted_twice |= bool(r["again"])


def _fact(r: dict[str, Any]) -> ChangedFact:
    return ChangedFact(r["id"], r["state"], r["relation"], r["head_id"], r["tail_id"], r.get("text"),
                       r.get("embedding"))
