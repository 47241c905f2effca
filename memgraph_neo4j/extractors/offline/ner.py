"""Heuristic NER for the offline extractor: sentences, name/date/quantity mentions, spaCy loading.

Without spaCy, names are capitalised multi-word spans (with "of"/"de"/"the" inside), and dates
and quantities come from the regexes of ``memgraph_neo4j.extractors.typing``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from memgraph_neo4j.extractors.offline.spacy_model import load_pinned_model
from memgraph_neo4j.extractors.typing import DATE_PATTERN, QUANTITY_PATTERN
from memgraph_neo4j.memory.normalize import normalize_entity_name, normalize_type

if TYPE_CHECKING:
    from memgraph_neo4j.memory.ontology import Ontology

__all__ = [
    "PRONOUN_SUBJECT", "TITLES", "Kind", "Mention", "load_spacy", "name_mentions", "numeric_mentions", "scope_starts",
    "sentences", "spacy_mention",
]

Kind = Literal["name", "date", "quantity", "class"]

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
_RANKS = frozenset("general major colonel captain lieutenant admiral sergeant lord lady pope senator judge".split())
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
TITLES = frozenset(
    "president king queen emperor empress duke duchess prince princess mayor governor bishop archbishop "
    "chancellor secretary minister earl count countess baron chairman ceo director head member capital".split()
)
PRONOUN_SUBJECT = re.compile(r"(?:He|She)(?=\s)")
_QUOTED = re.compile(r"[\s`'\"\u2018\u2019\u201c\u201d]*(?P<name>.*?)[\s`'\"\u2018\u2019\u201c\u201d]*", re.DOTALL)


@dataclass
class Mention:
    start: int
    end: int
    text: str
    kind: Kind
    label: str | None = None  # type from a rule or the NER label
    ref: Mention | None = None  # He/She -> its section's first named entity
    # "the film" read as the topic through another noun of its kind (arguments._kind_of): only the ontology's
    # relations are taken from it ("The film reunites Douglas with Turner" gave reunite_with facts that moved
    # a MuSiQue question's gold passage out of memgraphrag's top 2)
    by_kind: bool = False

    @property
    def target(self) -> Mention:
        return self.ref if self.ref is not None else self

    @property
    def key(self) -> str:
        return normalize_entity_name(self.target.text)


def load_spacy() -> Any | None:
    """The pinned, hash-checked spaCy pipeline of the ``nlp`` extra, else None (never downloads)."""
    return load_pinned_model()


_MARKDOWN_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)


def scope_starts(text: str, given: Sequence[int] = ()) -> list[int]:
    """Where the scopes of a chunk start, 0 first: the section starts its reader found (`given`, char
    offsets into the chunk) and Markdown heading lines. A pronoun or "the company" never reaches across one."""
    return sorted({0, *(o for o in given if 0 < o < len(text)), *(m.start() for m in _MARKDOWN_HEADING.finditer(text))})


def sentences(text: str) -> list[tuple[int, int]]:
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


def numeric_mentions(text: str, ments: list[Mention]) -> list[Mention]:
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
        out.append(Mention(s, e, text[s:e], kind, "Date" if kind == "date" else "Quantity"))  # type: ignore[arg-type]
    return out


def _is_cap(tok: str) -> bool:
    return tok[0].isupper() or (len(tok) > 1 and tok[0].islower() and tok[1].isupper())  # Paris, iPhone


def name_mentions(text: str, s: int, e: int, taken: list[Mention]) -> list[Mention]:
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
    out: list[Mention] = []
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
            or first.lower() in _MONTHS_DAYS | _HONORIFICS | TITLES
            or (at_start and words[0] is toks[span[0]] and (
                first.endswith("ly")  # "Technically, ...": a sentence-initial adverb
                or re.search(rf"(?<![\w-]){re.escape(first.lower())}(?![\w-])", text) is not None))
        ):
            continue  # a lone sentence-initial word also written in lower case is not a name
        ms, me = words[0][0], words[-1][1]
        if text[me : me + 1] == "." and "." in text[ms:me] and re.fullmatch(r"(?:\w\.)+\w", words[-1][2]):
            me += 1  # "U.S." keeps its final dot
        out.append(Mention(ms, me, text[ms:me], "name"))
    return out


def _trim(words: list[tuple[int, int, str]], at_start: bool) -> list[tuple[int, int, str]]:
    """Drop sentence-start words, honorifics and a leading title ('President of ...')."""
    while words:
        w = words[0][2].lower()
        if (at_start and w in _LEADING_STOP) or w in _PRONOUNS or w in _HONORIFICS or w in _CONNECTORS:
            words = words[1:]
            at_start = False
            continue
        if w in TITLES and len(words) > 2 and words[1][2].lower() == "of":
            words = words[2:]
            continue
        break
    while words and words[-1][2].lower() in _CONNECTORS:
        words = words[:-1]
    return words


def spacy_mention(ent: Any, ontology: Ontology) -> Mention | None:
    """A spaCy entity as a mention, trimmed to the name ("the United States'" -> "United States")."""
    label = ent.label_
    if label in ("ORDINAL", "CARDINAL"):
        return None
    kind: Kind = ("date" if label in ("DATE", "TIME")
                  else "quantity" if label in ("QUANTITY", "MONEY", "PERCENT") else "name")
    if kind == "date" and not re.search(r"\d", ent.text):
        return None  # "today", "the following year": not a node worth having
    typ = normalize_type(label, ontology)
    start, end, name = ent.start_char, ent.end_char, ent.text
    if kind == "name" and (m := _QUOTED.fullmatch(name)) and m["name"]:  # ``All You Need Is Love ''
        start, end, name = start + m.start("name"), start + m.end("name"), m["name"]
    if kind == "name" and (m := re.match(r"(?:the|The)\s+(?=\S)", name)):
        start, name = start + m.end(), name[m.end() :]  # "the United States" -> "United States"
    if kind == "name" and (m := re.search(r"\s*(?:'s|\u2019s|')$", name)) and m.start() > 0:
        end, name = end - len(m[0]), name[: m.start()]  # "Bruce Wayne's" -> "Bruce Wayne"
    if kind == "name" and (first := _name_start(ent)) < start:
        start, name = first, ent.doc.text[first:end]  # the NER cut "Chesapeake" off "Chesapeake Bay Retriever"
    return Mention(start, end, name, kind, typ if ontology.entity_type(typ) is not None else None)


def _name_start(ent: Any) -> int:
    """Where the name starts when capitalised compounds before the entity belong to it (the parse says so)."""
    doc, i = ent.doc, ent.start
    while i > ent.sent.start:
        t = doc[i - 1]
        if not (t.pos_ == "PROPN" and t.dep_ == "compound" and i <= t.head.i < ent.end and t.text[:1].isupper()
                and t.lower_.rstrip(".") not in TITLES | _HONORIFICS | _RANKS):
            break
        i -= 1
    return doc[i].idx if i < ent.start else ent.end_char
