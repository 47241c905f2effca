"""'X is a municipal district, one of the fifty-nine in Altai Krai': X lies in Altai Krai (dependency.py calls
it). The counted set ("one of the N [nouns] in Y") is a set of places of Y only when X is a place and Y is one;
"one of the best players in the league" says nothing of where anyone lies.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import COPULAS, SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["one_of_facts"]

Triple = tuple[Mention, str, Mention]


def _places(tok: Any, args: Arguments) -> list[Mention]:
    return [m for m in args.resolve(tok) if m.kind == "name" and m.target.label == "Place"]


def one_of_facts(one: Any, args: Arguments) -> list[Triple]:
    """(place, located_in, place) for "<place>, one of the N [nouns] in <place>", a counted set only."""
    if one.lower_ != "one" or one.dep_ != "appos":
        return []
    noun = one.head
    if noun.dep_ == "attr" and noun.head.lemma_ in COPULAS:
        heads = [m for s in noun.head.children if s.dep_ in SUBJ for m in _places(s, args)]
    else:
        heads = _places(noun, args)
    counted = [g for c in one.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children
               if g.dep_ == "pobj" and (g.pos_ == "NUM" or any(n.pos_ == "NUM" for n in g.children))]
    tails = [m for g in counted for c in g.children if c.dep_ == "prep" and c.lower_ == "in"
             for p in c.children if p.dep_ == "pobj" for m in _places(p, args)]
    return [(h, "located_in", t) for h in heads for t in tails if h.key != t.key]
