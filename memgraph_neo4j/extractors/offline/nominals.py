"""Facts a noun phrase states without a verb of its own, read from spaCy's parse (dependency.py calls it):

- a work's year: "X is a 1942 British film", "the 2013 film X", "X (1975) was a soap opera" -> the year
  X came out (``publication_date``): a year written before a work's genre noun dates the work;
- a work's maker: "based on the novel "Emmas Glück" by Claudia Schreiber" -> (title, created_by, author), the
  genre noun's relation of ``verbs.NOUN_BY`` (a song's "by" is its performer).
"""

from __future__ import annotations

import re
from typing import Any

from memgraph_neo4j.extractors.offline.arguments import COPULAS, SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention
from memgraph_neo4j.extractors.offline.verbs import NOUN_BY, WORK_GENRES

__all__ = ["work_maker", "work_year"]

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


def work_maker(noun: Any, args: Arguments) -> list[Triple]:
    """(title, created_by|performed_by, maker) for "the novel "X" by Y": the title in apposition to the genre
    noun, the maker the object of the noun's own "by" (the copula's "X is a novel by Y" is dependency.py's)."""
    relation = NOUN_BY.get(noun.lemma_.lower())
    if relation is None or noun.pos_ != "NOUN" or (noun.dep_ == "attr" and noun.head.lemma_ in COPULAS):
        return []
    works = _names([c for c in noun.children if c.dep_ == "appos" and 0 < c.i - noun.i <= 3], args)
    makers = _names([g for c in noun.children if c.dep_ == "prep" and c.lower_ == "by" and c.i > noun.i
                     for g in c.children if g.dep_ == "pobj"], args)
    for w in works if makers else ():
        w.label = "Work"  # the genre noun says what the title is ("Emmas Glück" is no person)
    return [(w, relation, m) for w in works for m in makers if m.key != w.key and m.target.label != "Place"]
