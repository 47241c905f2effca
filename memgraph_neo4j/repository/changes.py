"""What changed in one space since a memory version, as the retrieval copies apply it (retrieval/changes.py).

Stamped writes (repository/batch.py) set `changed = <their version>` on every node they touch; this reads
those nodes back, whole, in one read transaction: the memory state, the changed nodes of each label, the
state again. Read committed lets a write commit in between; then the two states differ, or a row carries
a stamp above the first, and the caller reads again. The graph of a whole space by owner (the PPR copy's
first read, retrieval/ppr/graph_copy.py) is read here too.
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
    located: bool = False  # it has a page or heading
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
    """Every node of the space stamped in (since, version]: the copies at `since` apply these to reach
    `version`. Rows are the nodes as they are now (an upsert); nothing in them was deleted (deletions
    are unstamped writes, which make `complete` False)."""

    since: int
    version: int
    complete: bool = True  # False: an unstamped write or too many rows since: read everything again
    facts: list[ChangedFact] = field(default_factory=list)
    schemas: list[ChangedSchema] = field(default_factory=list)
    passages: list[ChangedPassage] = field(default_factory=list)
    entities: list[ChangedEntity] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    # what the space counts (repository/statistics.py SpaceCounts) gained: nodes created in (since, version]
    new_facts: int = 0
    new_schemas: int = 0
    new_passages: int = 0
    new_located: int = 0
    passages_rewritten: bool = False  # a stamped passage that existed before (its provenance may have moved)
    mentions: int | None = None  # MENTIONS relationships of the whole database at `version` (count store)

    def __len__(self) -> int:
        return sum(len(getattr(self, label)) for label in LABELS)


class Retry(Exception):
    """A write committed while the changes were read: read them again."""


class ChangeRepository(Repository):
    def state(self) -> tuple[int, int]:
        """(memory version, the last version written unstamped)."""
        row = self.store.read("retrieval/changes_state", space=self.space)[0]
        return row["version"], row["full"]

    def since(self, since: int, limit: int) -> Changes:
        """The changes after version `since`, at most `limit` rows per label (more: not `complete`).
        Raises Retry when a write committed during the read."""
        params = {"space": self.space, "since": since, "limit": limit + 1, "vectors": True}
        state = ("retrieval/changes_state", {"space": self.space})
        results = self.store.read_many([state, *((f"retrieval/changed_{label}", params) for label in LABELS),
                                        state])
        first, last = results[0][0], results[-1][0]
        version = first["version"]
        if last["version"] != version:
            raise Retry(f"version {version} became {last['version']} during the read")
        rows = dict(zip(LABELS, results[1:-1], strict=True))
        if any(r["changed"] > version for label in LABELS for r in rows[label]):
            raise Retry(f"a row stamped after version {version}")
        changes = Changes(since, version)
        if first["full"] > since or any(len(rows[label]) > limit for label in LABELS):
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


def _fact(r: dict[str, Any]) -> ChangedFact:
    return ChangedFact(r["id"], r["state"], r["relation"], r["head_id"], r["tail_id"], r.get("text"),
                       r.get("embedding"))
