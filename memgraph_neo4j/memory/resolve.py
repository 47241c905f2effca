"""Entity resolution: surface names -> canonical Entity ids.

Order: (1) exact normalised-name match: an entity's own name (Entity.key) or a stored Alias; (2)
embedding similarity to a stored entity of a compatible type (vector index, cosine >= merge threshold);
(3) similarity to another new name of the same batch; (4) a new entity whose id is the hash of its
normalised name.
Steps 2-3 merge only names that state the same values (memory/values.py: "June 8, 1969" is not
"December 4, 1969", nor "Louis I" "Louis II", though their embeddings are that close), and only with
agreeing evidence, never on the embedding alone: dates and quantities when they are one value after
normalisation (`same_value_form`: "the late 1950s" is not "the 1950s"); names when they share context:
the same document, a page titled by the other name ("Michael Trent Reznor" on the page "Trent Reznor"),
or a neighbour (an entity mentioned beside both) - "Michael Hurst" became "Michael Eric
Hurst", "University of Texas" "University of North Texas" at cosine >= 0.9 without it. Every merge is
recorded on the merged name's Alias (`ResolvedEntity.merged`: rule, evidence, the name it joined).
In "link" mode steps 2-3 do not merge but return SAME_AS pairs.

With `bridge=(k, threshold)` it also gives stage IV's SIMILAR edges of the new entities, from the same
vector look-up (one read per batch) plus their similarity to the batch's other new entities: the k
nearest with cosine >= threshold, before anything is written, so the batch's writes are one transaction.

Pure: the stored entities are consulted through `EntityLookup` (the EntityRepository, or a fake).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from memgraph_neo4j.memory.normalize import bounded_key, content_hash, normalize_entity_name
from memgraph_neo4j.memory.values import same_value_form, same_values
from memgraph_neo4j.repository.entities import AliasHit, EntityRow, EvidenceQuery, Neighbor, SimilarEdge, VectorQuery

GENERIC_TYPE = "Thing"
VALUE_TYPES = frozenset({"Date", "Quantity"})  # one value is one entity wherever it is said: no context needed
SAME_DOCUMENT, TITLE, SHARED_NEIGHBOUR, SAME_VALUE = "same document", "title", "shared neighbour", "same value"


def types_compatible(a: str | None, b: str | None) -> bool:
    return a == b or not a or not b or GENERIC_TYPE in (a, b)


def pick_type(types: list[str]) -> str:
    """Most frequent specific type; the generic type only when nothing else was said."""
    specific = Counter(t for t in types if t and t != GENERIC_TYPE)
    return specific.most_common(1)[0][0] if specific else GENERIC_TYPE


@dataclass
class Mention:
    name: str
    type: str
    passage_id: str
    doc_id: str = ""  # its document (evidence for a similarity merge: the same document)
    title: str | None = None  # its passage's title (evidence: a page titled by the other name)


@dataclass
class ResolvedEntity:
    id: str
    name: str
    type: str
    keys: set[str] = field(default_factory=set)
    aliases: set[str] = field(default_factory=set)
    embedding: list[float] | None = None
    is_new: bool = True
    stored_keys: set[str] = field(default_factory=set)  # names already stored (its key or an Alias node)
    stored_aliases: set[str] | None = None  # surface forms already stored; None: not known
    merged: dict[str, dict[str, str]] = field(default_factory=dict)  # key -> how it joined by similarity

    @property
    def changed(self) -> bool:
        """A stored entity gains a name or surface form (a new one always has something to write)."""
        return (self.is_new or self.stored_aliases is None or bool(self.keys - self.stored_keys)
                or bool(self.aliases - self.stored_aliases))

    def row(self) -> EntityRow:
        """Its own name (the key its id is the hash of) goes on the entity, the others as Alias nodes."""
        own = next((k for k in self.keys if content_hash(k) == self.id), None)
        return EntityRow(self.id, self.name, self.type, sorted(self.aliases), sorted(self.keys - {own}),
                         self.embedding, {k: self.merged[k] for k in sorted(self.merged)}, own)


@dataclass
class Resolution:
    by_key: dict[str, str]  # normalised name -> entity id
    entities: dict[str, ResolvedEntity]  # entity id -> what to write
    same_as: list[SimilarEdge] = field(default_factory=list)  # link mode
    bridges: list[SimilarEdge] = field(default_factory=list)  # SIMILAR edges of new entities (`bridge`)
    # names that resolved through a similarity merge, now or stored (their Alias records it): where they
    # are used is written down (memory/facts.py), so the merge can be undone (memory/unmerge.py)
    merged_keys: set[str] = field(default_factory=set)


class EntityLookup(Protocol):
    """The stored entities as resolution sees them (implemented by repository.entities.EntityRepository)."""

    def lookup_aliases(self, keys: list[str]) -> list[AliasHit]: ...

    def entity_neighbors(self, rows: list[VectorQuery], fetch: int, min_cosine: float) -> list[Neighbor]: ...

    def entity_names(self, ids: list[str]) -> dict[str, str]: ...

    def merge_evidence(self, queries: list[EvidenceQuery]) -> dict[tuple[str, str], str]: ...


def _nearest(candidates: list[tuple[float, str]], k: int) -> list[tuple[float, str]]:
    """The k best (cosine, neighbour) pairs, ties to the lower id, each neighbour once."""
    seen: set[str] = set()
    out = []
    for cosine, neighbor in sorted(candidates, key=lambda c: (-c[0], c[1])):
        if neighbor not in seen:
            seen.add(neighbor)
            out.append((cosine, neighbor))
            if len(out) == k:
                break
    return out


def resolve_mentions(stored: EntityLookup, mentions: list[Mention], embedder=None,
                     merge_threshold: float = 0.9, mode: str = "merge",
                     bridge: tuple[int, float] | None = None, evidence: bool = True) -> Resolution:
    """`evidence=False`: similarity merges on the embedding and the values alone (the rule before the
    context check; for comparisons)."""
    surfaces: dict[str, Counter] = defaultdict(Counter)
    types: dict[str, list[str]] = defaultdict(list)
    docs_of: dict[str, set[str]] = defaultdict(set)  # a mention without a document: its passage stands for it
    passages_of: dict[str, set[str]] = defaultdict(set)
    titles_of: dict[str, set[str]] = defaultdict(set)  # the titles of its passages, normalised as keys
    in_passage: dict[str, set[str]] = defaultdict(set)
    for m in mentions:
        key = normalize_entity_name(m.name)
        if key:
            surfaces[key][m.name.strip()] += 1
            types[key].append(m.type)
            docs_of[key].add(m.doc_id or f"passage:{m.passage_id}")
            if m.title:
                titles_of[key].add(bounded_key(normalize_entity_name(m.title)))
            passages_of[key].add(m.passage_id)
            in_passage[m.passage_id].add(key)
    keys = sorted(surfaces)
    by_key: dict[str, str] = {}
    entities: dict[str, ResolvedEntity] = {}
    same_as: list[SimilarEdge] = []
    merged_keys: set[str] = set()

    def attach(key: str, entity_id: str, entity_type: str, is_new: bool) -> None:
        ent = entities.get(entity_id)
        if ent is None:
            ent = entities[entity_id] = ResolvedEntity(entity_id, surfaces[key].most_common(1)[0][0],
                                                       entity_type, is_new=is_new)
        ent.keys.add(key)
        ent.aliases.update(surfaces[key])
        by_key[key] = entity_id

    # (1) exact: names seen before, an entity's own key or an Alias node
    known: set[str] = set()  # the stored entities found so: a shared neighbour of a stored candidate is one
    for alias in stored.lookup_aliases(keys):
        known.add(alias.entity_id)
        attach(alias.key, alias.entity_id, alias.type, is_new=False)
        ent = entities[alias.entity_id]
        ent.stored_keys.add(alias.key)
        ent.stored_aliases = (ent.stored_aliases or set()) | set(alias.aliases)
        if alias.merged:
            merged_keys.add(alias.key)
    pending = [k for k in keys if k not in by_key]
    if not pending:
        return Resolution(by_key, entities, same_as, merged_keys=merged_keys)

    vectors: dict[str, np.ndarray] = {}
    near: dict[str, list[tuple[float, str]]] = defaultdict(list)  # key -> stored entities for bridging
    def surface(key: str) -> str:  # the name as written most often (keys are case-folded: "Louis II")
        return surfaces[key].most_common(1)[0][0]

    def neighbours(key: str) -> set[str]:  # the other names of its passages, as entity ids once resolved
        return {by_key.get(k, k) for p in passages_of[key] for k in in_passage[p] if k != key}

    def value_evidence(key: str, other: str) -> str | None:
        return SAME_VALUE if same_value_form(surface(key), other) else None

    def is_value(key: str, other_type: str | None) -> bool:
        return pick_type(types[key]) in VALUE_TYPES or other_type in VALUE_TYPES

    def batch_evidence(key: str, root_key: str, root: ResolvedEntity) -> str | None:
        """Why `key` is the batch's new entity `root` (first named `root_key`), or None."""
        if not evidence:
            return "similarity"
        if is_value(key, root.type):
            return value_evidence(key, root.name)
        if docs_of[key] & docs_of[root_key]:
            return SAME_DOCUMENT
        if key in titles_of[root_key] or titles_of[key] & root.keys:
            return TITLE
        shared = neighbours(key) & neighbours(root_key) - {key, root_key, root.id}
        return SHARED_NEIGHBOUR if shared else None

    def record(key: str, entity_id: str, why: str, name: str) -> None:  # name: the one it joined
        entities[entity_id].merged[key] = {"rule": "similarity", "evidence": why, "with": name}
        merged_keys.add(key)

    if embedder is not None:
        names = [surface(k) for k in pending]
        matrix = embedder.embed_documents(names)
        vectors = {k: matrix[i] for i, k in enumerate(pending)}
        # (2) similar stored entity of a compatible type; the same read finds bridging's neighbours
        queries = [VectorQuery(f"key:{k}", vectors[k].tolist()) for k in pending]
        best: dict[str, Neighbor] = {}
        fetch, floor = (max(20, 3 * bridge[0]), min(merge_threshold, bridge[1])) if bridge else (20, merge_threshold)
        close: list[tuple[str, Neighbor]] = []
        for hit in stored.entity_neighbors(queries, fetch=fetch, min_cosine=floor):
            key = hit.id[4:]
            if bridge and hit.cosine >= bridge[1]:
                near[key].append((hit.cosine, hit.neighbor))
            if hit.cosine >= merge_threshold and types_compatible(pick_type(types[key]), hit.type):
                close.append((key, hit))
        stored_names = stored.entity_names(sorted({hit.neighbor for _, hit in close})) if close else {}
        # a name stating other values (dates, numbers) is no merge
        close = [(key, hit) for key, hit in close if same_values(surface(key), stored_names.get(hit.neighbor, ""))]
        asked = [EvidenceQuery(key, hit.neighbor, sorted(docs_of[key]),
                               sorted(i for i in neighbours(key) if i in known), sorted(titles_of[key]))
                 for key, hit in close if evidence and not is_value(key, hit.type)]
        found = stored.merge_evidence(asked) if asked else {}
        why: dict[str, str] = {}
        for key, hit in close:  # best first
            if key not in best:
                reason = ("similarity" if not evidence else value_evidence(key, stored_names[hit.neighbor])
                          if is_value(key, hit.type) else found.get((key, hit.neighbor)))
                if reason:
                    best[key], why[key] = hit, reason
        for key, hit in best.items():
            if mode == "merge":
                attach(key, hit.neighbor, hit.type, is_new=False)
                record(key, hit.neighbor, why[key], stored_names[hit.neighbor])
            else:
                same_as.append(SimilarEdge(content_hash(key), hit.neighbor, hit.cosine))
        pending = [k for k in pending if k not in by_key]

    # (3) new names similar to each other in this batch, then (4) new entities. Most frequent
    # names first, so they become the canonical entity; one similarity matrix for the batch.
    order = sorted(pending, key=lambda k: (-sum(surfaces[k].values()), k))
    embedded = [k for k in order if k in vectors]
    row_of = {k: i for i, k in enumerate(embedded)}
    stacked = np.stack([vectors[k] for k in embedded]) if embedded else np.zeros((0, 1), dtype=np.float32)
    sims = stacked @ stacked.T
    is_root = np.zeros(len(embedded), dtype=bool)  # rows that became new entities
    root_ids: dict[int, str] = {}
    for key in order:
        own_type = pick_type(types[key])
        target = None
        if key in row_of and is_root.any():
            row = np.where(is_root, sims[row_of[key]], -1.0)
            for j in np.argsort(-row)[:8]:
                if row[j] < merge_threshold:
                    break
                root = entities[root_ids[j]]
                if types_compatible(own_type, root.type) and same_values(surface(key), root.name):
                    reason = batch_evidence(key, embedded[j], root)
                    if reason:
                        target = (root_ids[j], float(row[j]))
                        break
        if target and mode == "merge":
            attach(key, target[0], entities[target[0]].type, is_new=True)
            record(key, target[0], reason, entities[target[0]].name)
            continue
        entity_id = content_hash(key)
        attach(key, entity_id, own_type, is_new=True)
        if key in row_of:
            entities[entity_id].embedding = vectors[key].tolist()
            is_root[row_of[key]] = True
            root_ids[row_of[key]] = entity_id
        if target:
            same_as.append(SimilarEdge(entity_id, target[0], target[1]))
    resolution = Resolution(by_key, entities, same_as, merged_keys=merged_keys)
    if bridge and is_root.any():
        # (IV) bridging: each new entity to its k nearest, stored ones or this batch's other new ones
        roots = np.flatnonzero(is_root)
        for i in roots:
            own = root_ids[int(i)]
            candidates = list(near[embedded[i]])
            # the batch's other new roots at the threshold, found by one vector compare: a Python loop over
            # every pair took 15 % of a 2,400-name batch's write (MuSiQue x 3 profile)
            close = roots[sims[i, roots] >= bridge[1]]
            candidates += [(float(sims[i, j]), root_ids[int(j)]) for j in close if j != i]
            resolution.bridges += [SimilarEdge(own, neighbor, cosine)
                                   for cosine, neighbor in _nearest(candidates, bridge[0]) if neighbor != own]
    return resolution
