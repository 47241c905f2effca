"""``OfflineExtractor``: NER (spaCy or heuristic) + patterns + dependency relations + fallback co-occurrence.

See the package docstring (``memgraph_neo4j.extractors.offline``) for what it finds and guarantees.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memgraph_neo4j.contracts import (
    ExtractedEntity,
    ExtractedFact,
    Extraction,
    ExtractionInput,
    ExtractionOutcome,
    MemoryGuide,
    Usage,
)
from memgraph_neo4j.embeddings.base import Embedder
from memgraph_neo4j.extractors.offline.aliases import bracket_aliases, nicknames
from memgraph_neo4j.extractors.offline.dependency import DependencyRelations
from memgraph_neo4j.extractors.offline.names import abbreviations, repaired_names, trim_name
from memgraph_neo4j.extractors.offline.ner import (
    PRONOUN_SUBJECT,
    Mention,
    name_mentions,
    numeric_mentions,
    scope_starts,
    sentences,
    spacy_mention,
)
from memgraph_neo4j.extractors.offline.patterns import (
    RULES,
    class_phrase,
    comma_pairs,
    is_subject,
    np_relation,
    time_after,
)
from memgraph_neo4j.extractors.offline.spacy_model import load_pinned_model
from memgraph_neo4j.extractors.offline.speakers import (
    add_speaker,
    arguments_for,
    chat_doc,
    discourse_free,
    idle_speaker,
    parse_text,
)
from memgraph_neo4j.extractors.typing import TypeAssigner, rule_type
from memgraph_neo4j.memory.normalize import normalize_relation, normalize_type
from memgraph_neo4j.memory.ontology import Ontology

__all__ = ["CO_OCCURS", "OfflineExtractor"]

CO_OCCURS = "co_occurs_with"
SPACY_BATCH = 32  # documents per nlp.pipe batch: a MuSiQue passage is ~100 words


@dataclass
class _Chunk:
    text: str
    sentences: list[list[Mention]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # char offset where each sentence starts
    scopes: list[int] = field(default_factory=lambda: [0])  # where each section starts (scope_starts)
    topics: list[Mention | None] = field(default_factory=list)  # each scope's first named entity
    doc: Any = None  # the spaCy parse, when spaCy is used
    aliases: list[tuple[Mention, Mention]] = field(default_factory=list)  # (person, full name): aliases.nicknames


@dataclass
class _Draft:
    """One chunk between pattern matching and typing (typing is batched over chunks)."""

    text: str
    chunk: _Chunk
    facts: dict[tuple[str, str, str], str | None] = field(default_factory=dict)  # (head, rel, tail) keys -> time
    hints: dict[str, str] = field(default_factory=dict)
    class_keys: set[str] = field(default_factory=set)
    linked: set[frozenset[str]] = field(default_factory=set)
    entities: dict[str, Mention] = field(default_factory=dict)
    types: dict[str, str | None] = field(default_factory=dict)


class OfflineExtractor:
    """``Extractor`` without an LLM: NER + patterns + dependency relations + fallback co-occurrence.

    ``nlp``: a spaCy pipeline of your own (with a parser and NER) instead of the pinned model;
    ``dependency=False`` keeps spaCy's NER but only the regex patterns (an ablation).
    """

    name = "offline"
    uses_guide = False  # the output depends on the text only: ingest may extract the next batch early

    def __init__(
        self,
        ontology: Ontology,
        embedder: Embedder | None = None,
        *,
        ner: Literal["auto", "spacy", "heuristic"] = "auto",
        cooccurrence_window: int = 2,
        max_cooccurrence_per_sentence: int = 1,
        cooccurrence_ratio: float = 1.0,
        type_assigner: TypeAssigner | None = None,
        nlp: Any | None = None,
        dependency: bool = True,
    ) -> None:
        self.ontology = ontology
        self.type_assigner = type_assigner or (TypeAssigner(ontology, embedder) if embedder is not None else None)
        self.window = cooccurrence_window
        self.max_pairs = max_cooccurrence_per_sentence
        self.ratio = cooccurrence_ratio  # co-occurrence facts per real fact of the chunk (at least one)
        self._nlp = nlp if nlp is not None or ner == "heuristic" else load_pinned_model()
        if ner == "spacy" and self._nlp is None:
            raise RuntimeError("ner='spacy' but spaCy or its pinned model is not installed: "
                               "pip install 'memgraph-neo4j[nlp]'")
        self.ner = "spacy" if self._nlp is not None else "heuristic"
        self._dep = DependencyRelations(ontology) if self._nlp is not None and dependency else None
        self.model = f"{self.ner}-ner+patterns" + ("+dependency" if self._dep is not None else "")
        self._types = {t.name for t in ontology.entity_types}
        self._relations = {r.name for r in ontology.relations}
        self._fallback = "Thing" if "Thing" in self._types else ontology.entity_types[0].name
        self._place = normalize_type("Place", ontology)
        self._work = work if (work := normalize_type("Work", ontology)) in self._types else None  # quoted titles
        self._group = normalize_type("Group", ontology)

    # -- Extractor protocol --------------------------------------------------------------------

    def extract(self, items: Sequence[ExtractionInput], guide: MemoryGuide | None = None) -> list[ExtractionOutcome]:
        drafts: list[_Draft | str] = []
        for item, doc in zip(items, self._parse([parse_text(item) for item in items]), strict=True):
            try:
                drafts.append(self._draft(item.text, chat_doc(doc, item), item.scopes, item.title))
            except Exception as exc:  # one bad chunk must not sink the batch; reported, not dropped
                drafts.append(f"{type(exc).__name__}: {exc}")
        # One typing call for the whole batch: many tiny embedding calls are far slower.
        assigned = self._assign([d for d in drafts if isinstance(d, _Draft)])
        out = []
        for item, d in zip(items, drafts, strict=True):
            extraction, error = (self._finish(d, assigned), None) if isinstance(d, _Draft) else (None, d)
            out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, title=item.title,
                                         extraction=extraction, error=error, usage=Usage(), extractor=self.name,
                                         model=self.model))
        return out

    def estimate(self, items: Sequence[ExtractionInput], guide: MemoryGuide | None = None) -> Usage:
        """Zero: the offline extractor calls no model."""
        return Usage()

    def extract_text(self, text: str, scopes: Sequence[int] = ()) -> Extraction:
        return self._finish(draft := self._draft(text, self._parse([text])[0], scopes), self._assign([draft]))

    def _parse(self, texts: list[str]) -> list[Any]:
        """One nlp.pipe over the batch (one process: the machine's other core runs the embedder)."""
        if self._nlp is None:
            return [None] * len(texts)
        return list(self._nlp.pipe(texts, batch_size=SPACY_BATCH, n_process=1))

    def _draft(self, text: str, doc: Any = None, scopes: Sequence[int] = (), title: str | None = None) -> _Draft:
        """Mentions, pattern and dependency facts, and the types known without the embedder."""
        d = _Draft(text, self._mentions(text, doc, scope_starts(text, scopes), title))
        for sent, start in zip(d.chunk.sentences, d.chunk.starts, strict=True):
            for a, b in abbreviations(text, sent, sent):  # "Name (ABBR)"
                sent[:] = sorted({id(m): m for m in (*sent, b)}.values(), key=lambda m: m.start)
                self._add(d, a, "also_known_as", b)
            for a, b in bracket_aliases(text, sent):  # "Name (German: Alias)"
                self._add(d, a, "also_known_as", b)
            ments = [m for m in sent if m.kind != "class"]
            for i, a in enumerate(ments):
                if a.kind != "name" or not is_subject(text, start, a, ments):
                    continue
                for b in ments[i + 1 : i + 5]:
                    for rel, head, tail, time in self._match(text, ments, a, b):
                        self._add(d, head, rel, tail, time)
                if (cls := class_phrase(text, a)) is not None and self._noun(doc, cls):
                    d.class_keys.add(cls.key)
                    self._add(d, a, "instance_of", cls)
                    sent.append(cls)
        if self._dep is not None and doc is not None:
            self._dependency_facts(d)
        for sent in d.chunk.sentences:  # entities in order of first mention
            for m in sent:
                if m.ref is None and m.key:
                    d.entities.setdefault(m.key, m)
        for person, alias in d.chunk.aliases:  # a person named by a nickname: the full name is an alias
            self._add(d, person, "also_known_as", d.entities.setdefault(alias.key, alias))
        # rule / NER label > singleton domain or range of a matched relation > embedder > fallback
        d.types = {k: m.label or self._rule_type(m.text) or d.hints.get(k) for k, m in d.entities.items()}
        return d

    def _assign(self, drafts: list[_Draft]) -> dict[str, str]:
        todo = {k: d.entities[k].text for d in drafts for k, t in d.types.items() if t is None}
        if self.type_assigner is None or not todo:
            return {}
        return dict(zip(todo, self.type_assigner.assign(list(todo.values())), strict=True))

    def _finish(self, d: _Draft, assigned: dict[str, str]) -> Extraction:
        types = {k: t or assigned.get(k) for k, t in d.types.items()}
        instance_range = (r.range if (r := self.ontology.relation("instance_of")) else []) or [self._fallback]
        for k in d.class_keys:  # a class phrase is a concept ("American politician"), not a person
            if types[k] not in instance_range:
                types[k] = instance_range[0]
        final = {k: t or self._fallback for k, t in types.items()}
        for sent in d.chunk.sentences:  # "Honolulu, Hawaii": needs both typed Place, so after typing
            for a, b, p, n in comma_pairs(d.text, [m for m in sent if m.kind == "name" and m.ref is None]):
                if final[a.key] == final[b.key] == self._place and not (p or n):
                    self._add(d, a, "located_in", b)
        idle = idle_speaker(d.chunk.doc, d.facts)  # a chat turn's speaker no fact names: no entity of the turn
        names = {k for k, m in d.entities.items() if m.kind == "name" and k not in d.class_keys and k != idle}
        linked = {k for h, _, t in d.facts if h in names and t in names for k in (h, t)}
        budget = max(1, int(self.ratio * len(d.facts)))
        for sent in d.chunk.sentences:
            budget -= self._cooccur(d, sent, names, names - linked, budget)
        return Extraction(
            entities=[ExtractedEntity(name=m.text, type=final[k]) for k, m in d.entities.items() if k != idle],
            facts=[ExtractedFact(head=d.entities[h].text, relation=r, tail=d.entities[t].text, head_type=final[h],
                                 tail_type=final[t], time=time) for (h, r, t), time in d.facts.items()],
        )

    def _add(self, d: _Draft, head: Mention, rel: str, tail: Mention, time: str | None = None) -> None:
        rel = self._rel(rel)
        hk, tk = head.key, tail.key
        if not hk or not tk or hk == tk or self._scope(d.chunk, head.start) != self._scope(d.chunk, tail.start):
            return  # a fact lies within one section: its words on either side of a heading are not one statement
        d.facts.setdefault((hk, rel, tk), time)
        d.linked.add(frozenset((hk, tk)))
        if (r := self.ontology.relation(rel)) is not None:  # a singleton domain/range is a type hint
            for key, allowed in ((hk, r.domain), (tk, r.range)):
                if len(allowed) == 1:
                    d.hints.setdefault(key, allowed[0])

    @staticmethod
    def _scope(chunk: _Chunk, offset: int) -> int:
        return max(bisect_right(chunk.scopes, offset) - 1, 0)

    @staticmethod
    def _noun(doc: Any, cls: Mention) -> bool:
        """A class phrase ends in a noun ("Isis Whit, a young but ..." is an adjective), not a possessive."""
        if cls.text[-1:] in "'\u2019" or doc is None:
            return doc is None
        span = doc.char_span(cls.start, cls.end, alignment_mode="expand")
        return span is not None and span[-1].pos_ in ("NOUN", "PROPN") and \
            (span[-1].i + 1 >= len(doc) or doc[span[-1].i + 1].tag_ != "POS")

    def _rule_type(self, name: str) -> str | None:
        t = rule_type(name)
        return t if t is not None and (t := normalize_type(t, self.ontology)) in self._types else None

    # -- relations -----------------------------------------------------------------------------

    def _rel(self, name: str) -> str:
        """The ontology's canonical name for a default relation name (a custom ontology may rename it)."""
        return normalize_relation(name, self.ontology) or name

    def _gap(self, text: str, ments: list[Mention], a: Mention, b: Mention) -> str | None:
        """Text between a and b with mentions in between as <date>/<qty>/<ent>; None if too far apart."""
        if b.start - a.end > 150:
            return None
        parts, pos = [], a.end
        for m in ments:
            if a.end <= m.start and m.end <= b.start:
                parts += [text[pos : m.start], {"date": "<date>", "quantity": "<qty>"}.get(m.kind, "<ent>")]
                pos = m.end
        parts.append(text[pos : b.start])
        return "".join(parts)

    def _match(self, text: str, ments: list[Mention], a: Mention, b: Mention
               ) -> list[tuple[str, Mention, Mention, str | None]]:
        gap = self._gap(text, ments, a, b)
        if gap is None or "\n" in gap:
            return []
        out: list[tuple[str, Mention, Mention, str | None]] = []
        for rule in RULES:
            if not rule.gap.fullmatch(gap):
                continue
            rel = rule.date_relation if b.kind == "date" else rule.relation
            if rel is None or (rule.tail_kind and b.kind != rule.tail_kind):
                continue
            if b.kind == "quantity" and rule.tail_kind != "quantity":
                continue
            if rule.tail_words is not None and not rule.tail_words.search(b.text):
                continue
            if rule.after is not None and not rule.after.match(text, b.end):
                continue
            head, tail = (b, a) if rule.reverse else (a, b)
            if head.kind != "name" or (tail.ref is not None):
                continue
            out.append((rel, head, tail, self._time(text, ments, b, rel)))
        if not out and b.kind == "name" and b.ref is None:
            out += [(rel, a, b, self._time(text, ments, b, rel)) for rel in np_relation(gap, self.ontology)
                    if rel != "member_of" or b.label != "Person"]
        return out

    def _time(self, text: str, ments: list[Mention], tail: Mention, rel: str) -> str | None:
        """'married Y in 1992': a date right after the tail qualifies a temporal relation."""
        r = self.ontology.relation(self._rel(rel))
        if r is None or not r.temporal or tail.kind == "date":
            return None
        return time_after(text, ments, tail)

    def _dependency_facts(self, d: _Draft) -> None:
        """Facts from the parse for the pairs the patterns left unlinked (the patterns are more precise)."""
        assert self._dep is not None
        chunk = d.chunk
        ments = [m for sent in chunk.sentences for m in sent if m.kind != "class"]
        args = arguments_for(chunk.doc)(chunk.doc, ments, chunk.topics, self._rule_type,
                         [self._topic_nouns(d, t) for t in chunk.topics], self._noun_type, chunk.scopes)
        by_patterns = set(d.linked)
        instance_of = self._rel("instance_of")
        classified = {h for h, r, _ in d.facts if r == instance_of}
        for n, sent in enumerate(chunk.doc.sents):
            for f in self._dep.sentence_facts(sent, args):
                if f.tail.kind == "class":  # a class phrase the patterns missed
                    if f.head.key in classified or not f.tail.key:
                        continue
                    d.class_keys.add(f.tail.key)
                    chunk.sentences[n].append(f.tail)
                if frozenset((f.head.key, f.tail.key)) not in by_patterns:
                    self._add(d, f.head, f.relation, f.tail, f.time)
        for m in args.new.values():  # proper nouns the NER missed are entities too
            chunk.sentences[max(bisect_right(chunk.starts, m.start) - 1, 0)].append(m)

    def _noun_type(self, noun: str) -> str | None:
        """The ontology type a class noun names ("film" -> Work), None for other nouns and bare concepts."""
        t = normalize_type(noun, self.ontology)
        return t if t in self._types and t not in (self._fallback, "Concept", "Quantity", "Date") else None

    def _topic_nouns(self, d: _Draft, topic: Mention | None) -> frozenset[str]:
        """Nouns that stand for the topic: its class's head ("is a river"), its name's last word ("Humaya River")."""
        if topic is None:
            return frozenset()
        instance_of = self._rel("instance_of")
        nouns = {t.rsplit(maxsplit=1)[-1] for h, r, t in d.facts if h == topic.key and r == instance_of}
        words = topic.text.split()
        if len(words) > 1 and words[-1].isalpha():
            nouns.add(words[-1].lower())
        return frozenset(nouns)

    def _cooccur(self, d: _Draft, sent: list[Mention], names: set[str], orphans: set[str], budget: int) -> int:
        """The fallback: a named entity that no real fact links to another name gets ONE neighbour.

        The nearest other name of the sentence, at most `window` names away; at most `max_pairs` per
        sentence and `ratio` x the chunk's real facts in all (at least one). Dates, quantities, class
        phrases and nationalities ("American") take no part. Returns the number of facts added.
        """
        ments: dict[str, Mention] = {}
        for m in sent:
            if m.key in names and m.ref is None and m.label != self._group:
                ments.setdefault(m.key, m)
        seq = sorted(ments.values(), key=lambda m: m.start)
        n = 0
        for i, a in enumerate(seq):
            if a.key not in orphans or n >= min(self.max_pairs, budget):
                continue
            near = sorted(seq[max(i - self.window, 0) : i] + seq[i + 1 : i + 1 + self.window],
                          key=lambda b: (min(abs(b.start - a.end), abs(a.start - b.end)), b.start))
            for b in near[:1]:
                if frozenset((a.key, b.key)) not in d.linked:
                    head, tail = (a, b) if a.start < b.start else (b, a)
                    self._add(d, head, CO_OCCURS, tail)
                    n += 1
        return n

    # -- mentions ------------------------------------------------------------------------------

    def _mentions(self, text: str, doc: Any = None, scopes: Sequence[int] = (0,), title: str | None = None) -> _Chunk:
        chunk = _Chunk(text, doc=doc, scopes=list(scopes))
        if doc is not None:
            sents = [(s.start_char, s.end_char) for s in doc.sents]
            found = [trim_name(m) for e in doc.ents if (m := spacy_mention(e, self.ontology)) is not None]
            found = repaired_names(text, title, found, self._work)
            found, chunk.aliases = nicknames(text, found)
            ments = numeric_mentions(text, found)
            ments = discourse_free(ments, doc, self._nlp)  # a chat turn's "Congrats", "Wow", "100%" are no entities
        else:
            sents = sentences(text)
            ments = numeric_mentions(text, [])
            for s, e in sents:
                ments += name_mentions(text, s, e, ments)
        ments.sort(key=lambda m: m.start)
        chunk.topics = [None] * len(chunk.scopes)
        body = [0] + [text.find("\n", o) % (len(text) + 1) for o in chunk.scopes[1:]]  # after heading lines
        for m in reversed(ments):  # the first name of each scope's text (a heading names what it is about,
            n = self._scope(chunk, m.start)  # but "Early life" is no one)
            if m.kind == "name" and m.start >= body[n]:
                chunk.topics[n] = m
        for n, (s, e) in enumerate(sents):
            sent = [m for m in ments if s <= m.start < e]
            ps = s + len(text[s:e]) - len(head := text[s:e].lstrip())
            topic = chunk.topics[self._scope(chunk, ps)]  # he/she: its own section's topic, else nothing
            if n and topic is not None and topic.start < s and (p := PRONOUN_SUBJECT.match(head)):
                sent.insert(0, Mention(ps, ps + p.end(), p[0], "name", ref=topic))
            chunk.sentences.append(sent)
            chunk.starts.append(s)
        add_speaker(chunk.sentences, doc)  # a chat turn's "Speaker:" prefix, after the topics: "she" is not the speaker
        return chunk
