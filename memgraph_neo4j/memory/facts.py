"""Pure conversion of extraction outcomes into Fact / Schema / mention rows (no I/O)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from memgraph_neo4j.contracts import ExtractionOutcome, FactState, SchemaState
from memgraph_neo4j.memory.normalize import content_hash, normalize_entity_name, normalize_relation, normalize_type
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.resolve import GENERIC_TYPE, Mention, Resolution
from memgraph_neo4j.memory.timespan import time_interval
from memgraph_neo4j.repository.facts import EvidenceKeys, FactRow, MentionKeys, MentionRow


class _Memo(dict):
    """Memoised normalisation within one batch: a batch names the same few types and entities many times."""

    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, text):
        value = self[text] = self.fn(text)
        return value


def mentions_of(outcomes: list[ExtractionOutcome], ontology: Ontology) -> list[Mention]:
    """Every entity an outcome names: its entity list plus fact heads and tails."""
    out: list[Mention] = []
    typ = _Memo(lambda t: normalize_type(t, ontology) or GENERIC_TYPE)  # "Thing" for no type
    for o in outcomes:
        if not o.ok:
            continue
        for e in o.extraction.entities:
            out.append(Mention(e.name, typ[e.type], o.passage_id, o.doc_id, o.title))
        for f in o.extraction.facts:
            out.append(Mention(f.head, typ[f.head_type], o.passage_id, o.doc_id, o.title))
            out.append(Mention(f.tail, typ[f.tail_type], o.passage_id, o.doc_id, o.title))
    return out


def is_declared(ontology: Ontology, head_type: str, relation: str, tail_type: str) -> bool:
    rel = ontology.relation(relation)
    if rel is None:
        return False
    return (not rel.domain or head_type in rel.domain) and (not rel.range or tail_type in rel.range)


def relation_words(relation: str) -> str:
    return relation.replace("_", " ")


def fact_id(head_id: str, relation: str, tail_id: str, time: str | None) -> str:
    """A fact's id: its two entities, relation and time qualifier (ingest and unmerge make the same one)."""
    return content_hash(head_id, relation, tail_id, time or "")


def fact_text(head: str, relation: str, tail: str, time: str | None) -> str:
    """What a fact says, as embedded and shown: "Ada Lovelace born in London (1815)"."""
    return f"{head} {relation_words(relation)} {tail}" + (f" ({time})" if time else "")


@dataclass
class FactRows:
    facts: list[FactRow]
    mentions: list[MentionRow]
    dropped: int  # facts without a usable relation, or whose ends resolve to one entity
    # where a name merged by similarity was used (Resolution.merged_keys), for memory/unmerge.py; empty
    # when the batch used none (the common case writes nothing more)
    evidence_keys: list[EvidenceKeys] = field(default_factory=list)
    mention_keys: list[MentionKeys] = field(default_factory=list)


def fact_rows(outcomes: list[ExtractionOutcome], resolution: Resolution, ontology: Ontology) -> FactRows:
    strict = ontology.mode == "strict"
    facts: dict[tuple[str, str], FactRow] = {}
    mentions: set[MentionRow] = set()
    dropped = 0
    key = _Memo(normalize_entity_name)
    rel = _Memo(lambda r: normalize_relation(r, ontology))
    declared_of = _Memo(lambda s: is_declared(ontology, *s))
    merged = resolution.merged_keys
    used: dict[tuple[str, str], set[str]] = defaultdict(set)  # (passage, entity) -> merged names it used
    plain: set[tuple[str, str]] = set()  # (passage, entity | fact) also named without a merged name
    keyed: dict[tuple[str, str], tuple[str | None, str | None]] = {}  # (passage, fact) -> merged head, tail
    for o in outcomes:
        if not o.ok:
            continue
        names = [e.name for e in o.extraction.entities] + [n for f in o.extraction.facts for n in (f.head, f.tail)]
        for name in names:
            entity_id = resolution.by_key.get(key[name])
            if entity_id:
                mentions.add(MentionRow(o.passage_id, entity_id))
                if merged:
                    if key[name] in merged:
                        used[(o.passage_id, entity_id)].add(key[name])
                    else:
                        plain.add((o.passage_id, entity_id))
        for f in o.extraction.facts:
            relation = rel[f.relation]
            head_id = resolution.by_key.get(key[f.head])
            tail_id = resolution.by_key.get(key[f.tail])
            if not relation or not head_id or not tail_id or head_id == tail_id:
                dropped += 1
                continue
            head, tail = resolution.entities[head_id], resolution.entities[tail_id]
            head_type, tail_type = head.type, tail.type
            declared = declared_of[(head_type, relation, tail_type)]
            time = (f.time or "").strip() or None
            fid = fact_id(head_id, relation, tail_id, time)
            valid_at, invalid_at = time_interval(time)  # one temporal model for facts from any source
            if merged:
                ends = tuple(k if k in merged else None for k in (key[f.head], key[f.tail]))
                if any(ends):  # the first way the passage named it by a merged name
                    keyed.setdefault((o.passage_id, fid), ends)
                else:
                    plain.add((o.passage_id, fid))
            facts[(o.passage_id, fid)] = FactRow(
                id=fid,
                passage_id=o.passage_id,
                head_id=head_id, tail_id=tail_id,
                head=head.name, tail=tail.name,
                relation=relation, relation_raw=f.relation, time=time,
                text=fact_text(head.name, relation, tail.name, time),
                head_type=head_type, tail_type=tail_type,
                schema_id=content_hash(head_type, relation, tail_type),
                declared=declared,
                # strict: declared schemas are stable from the start, everything else is discarded
                schema_state=SchemaState.STABLE if strict and declared else SchemaState.CANDIDATE,
                state=FactState.DISCARDED if strict and not declared else FactState.PENDING,
                extractor=o.extractor, model=o.model, prompt_version=o.prompt_version,
                ontology_version=ontology.version_hash,
                valid_at=valid_at, invalid_at=invalid_at,
            )
    evidence = [EvidenceKeys(f, p, *ends, True if (p, f) in plain else None) for (p, f), ends in sorted(keyed.items())]
    mention_keys = [MentionKeys(p, e, sorted(ks), True if (p, e) in plain else None)
                    for (p, e), ks in sorted(used.items())]
    return FactRows(list(facts.values()), sorted(mentions), dropped, evidence, mention_keys)


def likely_texts(outcomes: list[ExtractionOutcome], ontology: Ontology,
                 stored_keys: set[str]) -> tuple[list[str], list[str]]:
    """What the write of `outcomes` will most likely embed, known before its resolution (ingest/pipeline.py
    embeds it ahead): the names whose keys the space does not hold (`stored_keys`: those it does), as
    resolution writes them (the batch's most frequent spelling of the key), and the texts of the facts
    naming one of them (a fact between two stored entities may be stored, its vector read back). A guess:
    a name that resolution merges by similarity changes a fact's text, which the write then embeds."""
    spellings: dict[str, dict[str, int]] = defaultdict(dict)
    for m in mentions_of(outcomes, ontology):
        if key := normalize_entity_name(m.name):
            name = m.name.strip()
            spellings[key][name] = spellings[key].get(name, 0) + 1
    # resolve_mentions' Counter.most_common(1): the highest count, the first seen among equals
    surface = {key: max(counts, key=counts.__getitem__) for key, counts in spellings.items()}
    rel = _Memo(lambda r: normalize_relation(r, ontology))
    texts: dict[str, None] = {}
    for o in outcomes:
        for f in o.extraction.facts if o.ok else ():
            head, tail = normalize_entity_name(f.head), normalize_entity_name(f.tail)
            if rel[f.relation] and head and tail and head != tail and not {head, tail} <= stored_keys:
                texts[fact_text(surface[head], rel[f.relation], surface[tail], (f.time or "").strip() or None)] = None
    return [name for key, name in surface.items() if key not in stored_keys], list(texts)
