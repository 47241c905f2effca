"""Facts a noun phrase states without a verb of its own, read from spaCy's parse (dependency.py calls it):

- a work's year: "X is a 1942 British film", "the 2013 film X", "X (1975) was a soap opera" -> the year
  X came out (``publication_date``): a year written before a work's genre noun dates the work;
- what a subject noun owned by the topic or a name says: "Its administrative center is X" (``capital_of``),
  "The population was 7,115" (``population``), "Its members were A, B and C" (``member_of``).
"""

from __future__ import annotations

import re
from typing import Any

from memgraph_neo4j.extractors.offline.arguments import COPULAS, SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention
from memgraph_neo4j.extractors.offline.verbs import WORK_GENRES

__all__ = ["owned_value", "work_year"]

Triple = tuple[Mention, str, Mention]

_YEAR = re.compile(r"\d{4}")
_BRACKET_YEAR = re.compile(r"\s*\(\s*(\d{4})\s*\)")


def _is_work(tok: Any, args: Arguments, work_types: frozenset[str]) -> bool:
    lemma = tok.lemma_.lower().rsplit("-", 1)[-1]
    return tok.pos_ == "NOUN" and (lemma in WORK_GENRES or args.noun_type(lemma) in work_types)


def _names(toks: Any, args: Arguments) -> list[Mention]:
    return [m for t in toks for m in args.expand(t) if m.kind == "name" and m.ref is None]


def work_year(noun: Any, args: Arguments, work_types: frozenset[str]) -> list[Triple]:
    """(work, publication_date, year) for a work's genre noun dated by a year before it, or by a year in
    brackets right after the work's name when the noun describes it ("X (1975) was a soap opera")."""
    if not _is_work(noun, args, work_types):
        return []
    if noun.dep_ == "attr" and noun.head.lemma_ in COPULAS:
        works = _names([c for c in noun.head.children if c.dep_ in SUBJ], args)
    elif noun.dep_ == "appos":
        works = _names([noun.head], args)
    elif noun.dep_ == "compound" and noun.head.i in args.of:  # "the 2013 film Saving Mr. Banks"
        works = _names([noun.head], args)
    else:
        works = _names([c for c in noun.children if c.dep_ == "appos" and 0 < c.i - noun.i <= 3], args)
    years = [m for c in noun.children if c.dep_ in ("nummod", "compound", "amod") and c.i < noun.i
             and (m := args.of.get(c.i)) is not None and m.kind == "date" and _YEAR.fullmatch(m.text)]
    out: list[Triple] = []
    for work in works:
        year = years[:1]
        if not year and (b := _BRACKET_YEAR.match(noun.doc.text, work.end)):
            span = noun.doc.char_span(*b.span(1))
            found = args.of.get(span[0].i) if span is not None else None
            year = [found] if found is not None and found.kind == "date" else []
        out += [(work, "publication_date", y) for y in year]
    return out


# "Its administrative center is X", "The population was 7,115", "Its members were A, B and C": a noun the
# sentence is about, owned by the passage's topic ("its", "the", "the city's", "of the city") or by a name
# ("the population of Y"); the copula's (or "include"'s) object is the value.
_OWNED = {"population": "population", "member": "member_of", "seat": "capital_of", "capital": "capital_of"}
_CENTRE = frozenset({"center", "centre"})  # only as "administrative center"
_TOPIC_DETS = frozenset({"its", "their", "the", "this"})


def _owner(noun: Any, args: Arguments) -> list[Mention]:
    topic = args.topic(noun)
    nouns = args.topic_nouns[args.scope(noun.idx)]
    for c in noun.children:
        if c.dep_ == "prep" and c.lower_ == "of":
            objs = [g for g in c.children if g.dep_ == "pobj"]
            names = _names(objs, args)
            if names or topic is None:
                return names
            return [topic] if any(g.lemma_.lower() in nouns for g in objs) else []
        if c.dep_ == "prep":
            return []  # "the members in the squad": another group
    poss = [c for c in noun.children if c.dep_ == "poss"]
    if poss:
        if poss[0].lower_ in _TOPIC_DETS or poss[0].lemma_.lower() in nouns:
            return [topic] if topic is not None else []
        return _names(poss, args)
    dets = [c.lower_ for c in noun.children if c.dep_ == "det"]
    amods = [c for c in noun.children if c.dep_ == "amod"]
    if topic is not None and (dets and dets[0] in _TOPIC_DETS or not dets and amods and noun.tag_ == "NNS"):
        return [topic]  # "The population was ...", "Notable former members include ..."
    return []


def _listed(tok: Any, args: Arguments) -> list[Mention]:
    """The names of an object and of the names appended to it ("A on vocals, B on guitar and C")."""
    out, todo = [], [tok]
    while todo:
        t = todo.pop(0)
        out += [m for m in args.resolve(t) if m.kind in ("name", "quantity") and m.ref is None and m not in out]
        todo += [c for c in t.children if c.dep_ in ("appos", "conj")]
    return out


def owned_value(noun: Any, args: Arguments) -> list[Triple]:
    """(owner, population, N), (member, member_of, owner), (capital, capital_of, owner) from a subject noun."""
    lemma = noun.lemma_.lower()
    if noun.dep_ != "nsubj" or not (lemma in _OWNED or lemma in _CENTRE and
                                    any(c.lower_ == "administrative" for c in noun.children)):
        return []
    relation = _OWNED.get(lemma, "capital_of")
    verb = noun.head
    if not (verb.lemma_ in COPULAS or relation == "member_of" and verb.lemma_ == "include"):
        return []
    owners = [o for o in _owner(noun, args) if o.target.label != "Person"]
    values: list[Mention] = []
    for obj in (c for c in verb.children if c.dep_ in ("attr", "dobj")):
        if obj.pos_ == "NOUN" and obj.i not in args.of:  # "the city of Biysk", "the locality (a "selo") of X"
            obj = next((g for n in (obj, *(c for c in obj.children if c.dep_ == "appos"))
                        for p in n.children if p.dep_ == "prep" and p.lower_ == "of"
                        for g in p.children if g.dep_ == "pobj"), obj)
        values += _listed(obj, args)
    want = "quantity" if relation == "population" else "name"
    values = [v for v in values if v.kind == want]
    if relation == "population":
        return [(o, relation, v) for o in owners for v in values[:1]]
    return [(v, relation, o) for o in owners for v in values if v.key != o.key]
