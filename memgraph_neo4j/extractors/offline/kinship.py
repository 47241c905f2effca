"""Kin named after a possessive: "his wife, Mary Cole", "her father John Price", "Tom's brother Harold".

The kin noun (wife, brother, father, ...) has the possessor as its ``poss`` child and the relative's
name as its apposition. The possessor is a named person, or his/her resolved to the one person the
sentence names before it, as a subject (a resolved he/she included); with no one named before it, the person of the
previous sentence (coreference.py's rule). Two candidates, a gender clash or no person: no fact.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["KIN", "kin_facts"]

PERSON = "Person"
# kin noun -> (relation, whether the relative is the head: "his son X" -> X child_of him)
KIN: dict[str, tuple[str, bool]] = {
    **dict.fromkeys(("wife", "husband", "spouse", "widow", "widower", "bride", "bridegroom"), ("spouse_of", False)),
    **dict.fromkeys(("brother", "sister", "half-brother", "half-sister"), ("sibling_of", False)),
    **dict.fromkeys(("father", "mother", "parent"), ("child_of", False)),
    **dict.fromkeys(("son", "daughter", "child"), ("child_of", True)),
}
_GENDER = {"his": "he", "her": "she"}


def kin_facts(noun: Any, args: Arguments) -> list[tuple[Mention, str, Mention]]:
    """(possessor, relation, relative) of a kin noun with a possessor and a named apposition; else []."""
    if noun.pos_ != "NOUN" or noun.lemma_.lower() not in KIN:
        return []
    relation, reverse = KIN[noun.lemma_.lower()]
    kin = [m for c in noun.children if c.dep_ == "appos" and 0 < c.i - noun.i <= 4
           for m in args.resolve(c) if m.kind == "name" and m.ref is None and m.label == PERSON]
    owner = next((c for c in noun.children if c.dep_ == "poss"), None)
    if not kin or owner is None:
        return []
    possessor = _possessor(owner, args)
    if possessor is None:
        return []
    return [(k, relation, possessor) if reverse else (possessor, relation, k) for k in kin if k.key != possessor.key]


def _possessor(owner: Any, args: Arguments) -> Mention | None:
    if (m := args.of.get(owner.i)) is not None:  # "Tom's wife"
        return m.target if m.kind == "name" and m.target.label == PERSON else None
    gender = _GENDER.get(owner.lower_)
    if gender is None:
        return None
    sent = owner.sent
    before = [m for t in owner.doc[sent.start : owner.i] for m in _person(t, args)]
    before += [m for t in owner.doc[sent.start : owner.i] if args.antecedents._untyped_name(t)
               for m in [Mention(t.idx, t.idx + len(t), t.text, "name")]]
    subjects = [m for t in owner.doc[sent.start : owner.i] if t.dep_ in SUBJ for m in _person(t, args)]
    if len({m.key for m in before}) > 1 or (before and not subjects):
        return None  # two people, or only one named in passing ("the Ramsay family, with her brother")
    found = subjects[0] if subjects else args.antecedents.previous(sent, gender)
    if found is None or args.antecedents._title_gender(found) not in (None, gender) or \
            args.antecedents.gender.setdefault(found.key, gender) != gender:
        return None
    return found if found.label == PERSON else None


def _person(t: Any, args: Arguments) -> list[Mention]:
    if t.pos_ == "PRON" and t.lower_ in ("he", "she"):
        return [m.target for m in args.resolve(t) if m.kind == "name"]
    m = args.of.get(t.i)
    return [m.target] if m is not None and m.kind == "name" and m.target.label == PERSON else []
