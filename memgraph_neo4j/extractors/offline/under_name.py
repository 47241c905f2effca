"""Another name an entity goes "under" (dependency.py calls it per verb):

"The journal was established in 1931 under the name of Physics", "Cool Ranch Doritos are sold under the
name "Cool Original" in the UK", "She wrote under the pen name Currer Bell" -> (subject, also_known_as, name).

The name is the object of "of" after the noun, the noun's apposition, or the name written right after it
(the small model hangs a quoted name on the verb as its object: "sold ... "Cool Original"", which gave the
open relation ``sold``; that object is handed back as used, so it gives nothing else). Only when the verb
has no other object: in "X released the album under the name Y" the name may be the album's or X's.
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["under_name"]

Triple = tuple[Mention, str, Mention]
_NOUNS = frozenset({"name", "title", "pseudonym", "brand", "banner", "label"})


def under_name(v: Any, subjects: list[Mention], args: Arguments) -> tuple[list[Triple], set[int]]:
    """(subject, also_known_as, name) for '<subject> <verb> under the name X', and the verb's objects it used
    (the noun, and the name when the parse made it the verb's object): they give no other fact."""
    nouns = [g for c in v.children if c.dep_ == "prep" and c.lower_ == "under"
             for g in c.children if g.dep_ == "pobj" and g.lemma_.lower() in _NOUNS and g.i not in args.of]
    if len(nouns) != 1 or not subjects:
        return [], set()
    noun, used = nouns[0], set()
    toks = [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
    toks += [c for c in noun.children if c.dep_ in ("appos", "compound") and c.i > noun.i]
    dobjs = [c for c in v.children if c.dep_ == "dobj"]
    if not toks and len(dobjs) == 1 and _next_to(noun, dobjs[0]):
        toks, used = dobjs, {dobjs[0].i}
    elif dobjs:
        return [], set()  # "released the album under the name Y": whose name is it?
    names = [m for t in toks for m in args.resolve(t) if m.kind == "name" and m.ref is None]
    out = [(s, "also_known_as", n) for s in subjects for n in names if n.key != s.target.key]
    return out, (used | {noun.i}) if out else set()


def _next_to(noun: Any, obj: Any) -> bool:
    """Only quotes and spaces between the noun and the object's phrase: "the name "Cool Original""."""
    between = noun.doc[noun.i + 1 : obj.left_edge.i]
    return all((t.is_punct or t.dep_ == "punct") and t.text not in ",;." for t in between)  # "`" is no is_punct
