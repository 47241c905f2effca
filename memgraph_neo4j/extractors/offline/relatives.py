"""Family relations a noun phrase states, read from spaCy's parse (dependency.py calls it):

- "X's brother Y", "X's cousin Y": the kin noun owned by one name, with the other in apposition;
- "X and wife Y": the kin noun a compound of the second name of a pair.

A possessive pronoun ("her brother Y") stands for nobody here: who "her" is belongs to coreference.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["relative_facts"]

Triple = tuple[Mention, str, Mention]

# kin noun -> (relation, True when the fact reads (relative, relation, owner))
KIN: dict[str, tuple[str, bool]] = {
    **dict.fromkeys("brother sister sibling half-brother half-sister stepbrother stepsister twin".split(),
                    ("sibling_of", False)),
    **dict.fromkeys("wife husband spouse widow widower".split(), ("spouse_of", False)),
    **dict.fromkeys("son daughter child stepson stepdaughter".split(), ("child_of", True)),
    **dict.fromkeys("father mother parent stepfather stepmother".split(), ("child_of", False)),
    **{k: (f"{k}_of", True) for k in "cousin nephew niece uncle aunt grandson granddaughter grandfather "
                                     "grandmother".split()},
}


def _names(tok: Any, args: Arguments) -> list[Mention]:
    return [m for m in args.resolve(tok) if m.kind == "name" and m.ref is None]


def relative_facts(noun: Any, args: Arguments) -> list[Triple]:
    """(person, relation, person) for a kin noun between two names."""
    kin = KIN.get(noun.lower_)
    if kin is None or noun.pos_ != "NOUN":
        return []
    owners = [m for c in noun.children if c.dep_ == "poss" for m in _names(c, args)]
    if noun.dep_ == "compound" and noun.head.pos_ == "PROPN":  # "X and wife Y", "X's wife Y" read as one phrase
        relatives = _names(noun.head, args)
        if not owners and noun.head.dep_ == "conj":
            owners = _names(noun.head.head, args)
    else:
        relatives = [m for c in noun.children if c.dep_ == "appos" and 0 < c.i - noun.i <= 3
                     for m in _names(c, args)]
    relation, reverse = kin
    return [(r, relation, o) if reverse else (o, relation, r)
            for o in owners for r in relatives if o.key != r.key]
