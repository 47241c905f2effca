"""Undoing a similarity merge (issue 27): the memory as if the name had never joined the entity.

Resolution records every merge on the merged name's Alias (memory/resolve.py), and every ingest writes
where a merged name was used: the merged names a passage named an entity by on its MENTIONS, the ones it
stated a fact by on its EVIDENCED_BY (memory/facts.py, sparse: nothing when none was used). Unmerging a
name then, in one stamped transaction (repository/unmerge.py):
1. the name gets its own entity N (id: the hash of its normalised name, as a new name gets; the joined
   entity's type; its first stored surface form as its name, no counts being stored; embedded, and
   bridged to its nearest entities as the writer bridges a new one), the name is N's own (its `key`),
   its Alias goes with the merge record (`unmerged_from` on N keeps where it was), its surface forms move;
2. each passage that used the name mentions N, and its mention of the joined entity goes unless it
   named that entity otherwise too;
3. each fact a passage stated by the name is made again as that passage states it with N (new id, names
   and text, embedding; pending and Unpromoted like a new fact), and the old fact loses that evidence.
Then retraction's steps settle what lost evidence (memory/retract.settle_marked: a fact left without
evidence is retracted, its conflicts closed, schemas recounted and demoted under the bar, entities nothing
grounds deleted), and promotion runs as after an ingest (the caller runs the conflict check). Later
mentions of the name resolve exactly to N by its key. A run that died after the transaction is
finished by running it again (N says `unmerged_from`; the marked nodes wait). A space ingested
before these records were written has none: there an unmerge moves the name and surface forms only.
"""

from __future__ import annotations

import time

from pydantic import BaseModel, Field

from memgraph_neo4j.contracts import AdjudicationReport, FactState, SchemaState
from memgraph_neo4j.memory.facts import fact_id, fact_text, is_declared
from memgraph_neo4j.memory.normalize import content_hash, normalize_entity_name
from memgraph_neo4j.memory.retract import RetractionReport, settle_marked
from memgraph_neo4j.memory.timespan import time_interval
from memgraph_neo4j.repository.documents import DocumentRepository
from memgraph_neo4j.repository.entities import EntityRow, SimilarEdge, VectorQuery
from memgraph_neo4j.repository.facts import EvidenceKeys, FactRow
from memgraph_neo4j.repository.unmerge import EntitySplit, MentionUse, MergedName, UnmergeRepository

MERGES = "`memgraph-neo4j analytics entity_merges` lists the names merged by similarity"


class UnknownName(ValueError):
    """No entity has this name in the space."""


class NotMerged(ValueError):
    """The name is an entity's own: no merge to undo."""


class UnmergeReport(BaseModel):
    name: str
    key: str  # the name normalised (its Alias, then its own entity's key)
    joined_id: str  # the entity it had joined
    joined: str
    entity_id: str  # its own entity now
    entity: str
    surfaces: list[str] = Field(default_factory=list)  # surface forms moved
    mentions_moved: int = 0  # passages that named it
    evidence_moved: int = 0  # (fact, passage) pairs stated by it
    facts_made: int = 0  # distinct facts made again with its own entity
    bridges: int = 0
    retraction: RetractionReport = Field(default_factory=RetractionReport)  # what lost evidence, settled
    promoted: int = 0
    activated: int = 0
    finished: bool = False  # unmerged already by a run that died: only the remaining steps ran
    version: int = 0
    adjudication: AdjudicationReport | None = None  # the conflict check run afterwards (MemoryGraph.unmerge)
    seconds: float = 0.0


def unmerge_name(writer, name: str) -> UnmergeReport:
    """Undo the similarity merge of `name` (any surface form of it) through `writer` (memory/writer.py), under
    the space's lease (the caller's). UnknownName / NotMerged before anything changes."""
    began = time.monotonic()
    key = normalize_entity_name(name)
    own_id = content_hash(key)
    repo = UnmergeRepository(writer.store, writer.space)
    target = repo.target(key, own_id) if key else None
    if target is None:
        raise UnknownName(f"no entity is named {name!r} in space {writer.space!r}; {MERGES}")
    if target.merged_by is None and target.unmerged_from is None:
        raise NotMerged(f"{name!r} is the own name of entity {target.entity!r} in space {writer.space!r}, not "
                        f"a merge; {MERGES}")
    if target.merged_by is not None and target.taken:  # resolution never merges a name into another entity then
        raise NotMerged(f"an entity of {name!r}'s own id exists already in space {writer.space!r}")
    report = UnmergeReport(name=name, key=key, joined_id=target.unmerged_from or target.entity_id,
                           joined="" if target.merged_by is None else target.entity, entity_id=own_id,
                           entity=target.entity,
                           finished=target.merged_by is None)
    if not report.finished:
        split = _split(writer, repo, target, own_id, report)
        report.version = repo.split(key, split) or 0
    settle_marked(DocumentRepository(writer.store, writer.space), writer.facts, writer.ontology, report.retraction)
    report.promoted, report.activated = writer.promote_written()
    writer.lookup.vectors.invalidate()  # a new entity, new facts, maybe deleted ones: read again on next use
    writer.fact_vectors.invalidate()
    report.version = max(report.version, report.retraction.version, writer.memory_version())
    report.seconds = time.monotonic() - began
    return report


def _split(writer, repo: UnmergeRepository, target: MergedName, own_id: str, report: UnmergeReport) -> EntitySplit:
    key = target.key
    surfaces = [s for s in target.aliases if normalize_entity_name(s) == key] or [report.name.strip()]
    own = surfaces[0]
    mentions = repo.mentions(key, target.entity_id)
    evidence = repo.evidence(key, [m.passage_id for m in mentions])
    facts, fact_keys, moved = _facts(writer.ontology, evidence, key, own_id, own)
    renamed = _renamed(evidence, key, target)
    vectors = _embed(writer.embedder, [own] + [f.text for f in facts] + [r["text"] for r in renamed])
    for row, vector in zip(facts + renamed, vectors[1:]):
        if isinstance(row, dict):
            row["embedding"] = vector
        else:
            row.embedding = vector
    entity = EntityRow(own_id, own, target.type, surfaces, [], vectors[0], {}, key)
    report.entity, report.surfaces = own, surfaces
    report.mentions_moved, report.evidence_moved = len(mentions), len(moved)
    report.facts_made = len({f.id for f in facts})
    bridges = _bridges(writer, own_id, vectors[0])
    report.bridges = len(bridges)
    return EntitySplit(entity, target.entity_id, surfaces, facts, fact_keys, moved,
                       [_mention(m) for m in mentions], renamed, bridges)


def _renamed(evidence: list[dict], key: str, target: MergedName) -> list[dict]:
    """The old facts whose head or tail is the name (the batch that created them named the joined entity by
    it): with the joined entity's name there instead, as a passage naming it so would have written them."""
    out: dict[str, dict] = {}
    for r in evidence:
        ends = [target.entity if r[f"{end}_id"] == target.entity_id and normalize_entity_name(r[end]) == key
                else r[end] for end in ("head", "tail")]
        if ends != [r["head"], r["tail"]]:
            text = fact_text(ends[0], r["relation"], ends[1], r["time"])
            out[r["id"]] = {"id": r["id"], "head": ends[0], "tail": ends[1], "text": text, "embedding": None}
    return list(out.values())


def _mention(m: MentionUse) -> dict:
    """The mention of the joined entity stays where the passage named it otherwise too."""
    return {"passage_id": m.passage_id, "stays": bool(m.kept) or m.direct, "kept": m.kept or None,
            "direct": True if m.kept and m.direct else None}


def _facts(ontology, evidence: list[dict], key: str, own_id: str, own: str):
    """Each (fact, passage) that named an end by `key`, made again with the name's own entity there, as
    memory/facts.fact_rows makes a fact; the merged names its other end used, kept; the evidence to move."""
    strict = ontology.mode == "strict"
    facts, fact_keys, moved = [], [], []
    for r in evidence:
        head_id, head = (own_id, own) if r["head_key"] == key else (r["head_id"], r["head"])
        tail_id, tail = (own_id, own) if r["tail_key"] == key else (r["tail_id"], r["tail"])
        relation, t = r["relation"], r["time"]
        head_type, tail_type = r["head_type"], r["tail_type"]  # the schema's: the new entity has the joined type
        declared = is_declared(ontology, head_type, relation, tail_type)
        fid = fact_id(head_id, relation, tail_id, t)
        valid_at, invalid_at = time_interval(t)
        facts.append(FactRow(
            id=fid, passage_id=r["passage_id"], head_id=head_id, tail_id=tail_id, head=head, tail=tail,
            relation=relation, relation_raw=r["relation_raw"], time=t,
            text=fact_text(head, relation, tail, t),
            head_type=head_type, tail_type=tail_type, schema_id=content_hash(head_type, relation, tail_type),
            declared=declared, schema_state=SchemaState.STABLE if strict and declared else SchemaState.CANDIDATE,
            state=FactState.DISCARDED if strict and not declared else FactState.PENDING,
            extractor=r["extractor"], model=r["model"], prompt_version=r["prompt_version"],
            ontology_version=r["ontology_version"], valid_at=valid_at, invalid_at=invalid_at))
        others = tuple(k if k != key else None for k in (r["head_key"], r["tail_key"]))
        if any(others):  # the other end was named by another merged name: still recorded
            fact_keys.append(EvidenceKeys(fid, r["passage_id"], *others))
        moved.append({"fact_id": r["id"], "passage_id": r["passage_id"], "direct": bool(r["direct"])})
    return facts, fact_keys, moved


def _embed(embedder, texts: list[str]) -> list[list[float] | None]:
    if embedder is None:
        return [None] * len(texts)
    return [row.tolist() for row in embedder.embed_documents(texts)]


def _bridges(writer, own_id: str, vector: list[float] | None) -> list[SimilarEdge]:
    """Its SIMILAR edges as the writer gives a new entity: the k nearest stored entities at the threshold."""
    if vector is None or writer.embedder is None:
        return []
    k, threshold = writer.config.bridge_k, writer.config.bridge_threshold
    hits = writer.lookup.entity_neighbors([VectorQuery(own_id, vector)], fetch=max(20, 3 * k), min_cosine=threshold)
    best: dict[str, float] = {}
    for hit in sorted(hits, key=lambda h: (-h.cosine, h.neighbor)):
        if hit.neighbor != own_id and len(best) < k:
            best.setdefault(hit.neighbor, hit.cosine)
    return [SimilarEdge(own_id, neighbor, cosine) for neighbor, cosine in best.items()]
