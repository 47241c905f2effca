"""Provenance reads: where a fact comes from (evidence, documents, schema, state, lineage, conflicts) and
which document a passage belongs to (cypher/memory/fact_provenance, cypher/retrieval/passage_sources)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memgraph_neo4j.contracts import FactState
from memgraph_neo4j.repository.base import Repository


@dataclass(frozen=True, slots=True)
class PassageSource:
    """A passage and the document it was cut from."""

    passage_id: str
    title: str | None
    doc_id: str
    doc_title: str | None
    source: str | None
    index: int | None = None
    text: str | None = None  # evidence only, cut to the requested length
    facts: tuple[PassageFact, ...] = ()  # the facts it evidences, when asked for (ProvenanceRepository.passages)


@dataclass(frozen=True, slots=True)
class PassageFact:
    """A fact a passage evidences, in any state, with the conflicts it is in: each conflict's id, type, status,
    the verdict proposed for this fact (`proposed`, `applied`) and its other facts (id, text, state, proposed,
    applied): what a retrieved passage carries into the framework adapters."""

    id: str
    text: str
    state: str  # pending | active | discarded | superseded | contradicted
    relation: str
    head: str
    tail: str
    time: str | None = None
    valid_at: str | None = None  # conversation memory: when it started and stopped holding
    invalid_at: str | None = None
    conflicts: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class FactProvenance:
    id: str
    text: str
    head: str
    relation: str
    tail: str
    time: str | None
    state: str  # pending | active | discarded | superseded | contradicted
    checked: bool  # adjudication has looked at it since it became active
    lineage: dict[str, Any]  # extractor, model, prompt and ontology versions, created_at
    schema: dict[str, Any] | None  # id, head_type, relation, tail_type, state (candidate|stable), frequency
    entities: list[dict[str, Any]]  # subject and object: role, id, name, type
    evidence_count: int  # all evidence passages; `evidence` holds at most the requested number
    evidence: list[PassageSource]
    conflicts: list[dict[str, Any]]  # id, type, status, proposed verdict, applied
    qualifiers: dict[str, str] = field(default_factory=dict)  # valid_from / valid_to / ordinal when set

    @property
    def documents(self) -> list[str]:
        """The documents the evidence comes from, each once, in evidence order."""
        return list(dict.fromkeys(p.doc_id for p in self.evidence))


LINEAGE = ("extractor", "model", "prompt_version", "ontology_version", "created_at")


class ProvenanceRepository(Repository):
    def facts(self, ids: Sequence[str], per_fact: int = 20, chars: int = 2000) -> dict[str, FactProvenance]:
        """The provenance of each fact that exists in the space, by id; unknown ids are left out."""
        rows = self.store.read("memory/fact_provenance", space=self.space, ids=list(dict.fromkeys(ids)),
                               per_fact=per_fact, chars=chars)
        return {r["id"]: FactProvenance(
            id=r["id"], text=r["text"], head=r["head"], relation=r["relation"], tail=r["tail"], time=r["time"],
            state=r["state"], checked=r["checked"], lineage={k: r[k] for k in LINEAGE},
            schema=r["schemas"][0] if r["schemas"] else None, entities=r["entities"],
            evidence_count=r["evidence_count"],
            evidence=[PassageSource(p["passage_id"], p["title"], p["doc_id"], p["doc_title"], p["source"],
                                    text=p["text"]) for p in r["evidence"]],
            conflicts=r["conflicts"],
            qualifiers={k: r[k] for k in ("valid_from", "valid_to", "ordinal") if r[k] is not None})
            for r in rows}

    def passages(self, ids: Sequence[str], facts: int = 0) -> dict[str, PassageSource]:
        """The document of each passage; with `facts` > 0, also up to that many facts it evidences (active
        first) with their conflicts (cypher/retrieval/passage_facts)."""
        ids = list(dict.fromkeys(ids))
        rows = self.store.read("retrieval/passage_sources", space=self.space, ids=ids)
        evidenced = {r["id"]: tuple(PassageFact(**{**f, "conflicts": tuple(f["conflicts"])}) for f in r["facts"])
                     for r in self.store.read("retrieval/passage_facts", space=self.space, ids=ids, facts=facts,
                                              active=str(FactState.ACTIVE), pending=str(FactState.PENDING))
                     } if facts > 0 else {}
        return {r["id"]: PassageSource(r["id"], r["title"], r["doc_id"], r["doc_title"], r["source"], r["index"],
                                       facts=evidenced.get(r["id"], ())) for r in rows}
