"""Who plays whom, read from spaCy's parse (dependency.py calls it):

- "X stars A as P, and B as Q": A and B are cast members of X, A plays P, B plays Q (the parse hangs
  "B" on P as its conjunct: without this B was read as X's "star_as");
- "A is best known for her role as P in X", "his portrayal of P in the series X", "known for playing P on
  X": A acted in X and plays P.
  The possessive is the clause's own subject (the same sentence, no coreference across sentences).

The ontology has no relation for a character: "play" is the open relation the verb path already gives
("A played P").
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["PLAYS", "known_for_role", "playing_facts", "role_facts", "star_facts"]

Triple = tuple[Mention, str, Mention]
PLAYS = "play"
ROLE_NOUNS = frozenset({"role", "portrayal"})
_POSSESSIVES = frozenset({"his", "her"})
_NOT_CHARACTER = frozenset({"Work", "Place", "Organization", "Date", "Quantity", "Event"})


def _names(tok: Any, args: Arguments) -> list[Mention]:
    return [m for m in args.resolve(tok) if m.kind == "name" and m.ref is None]


def _pobjs(tok: Any, preps: tuple[str, ...]) -> list[Any]:
    return [g for c in tok.children if c.dep_ == "prep" and c.lower_ in preps for g in c.children if g.dep_ == "pobj"]


def _characters(tok: Any, args: Arguments) -> list[Mention]:
    return [m for m in _names(tok, args) if m.target.label not in _NOT_CHARACTER]


def star_facts(v: Any, works: list[Mention], args: Arguments) -> list[Triple]:
    """(work, cast_member, actor) and (actor, play, character) for "stars A as P, and B as Q"; the parse
    hangs "as P" on the verb or on A, and "B" on A, on the verb or on P."""
    if v.lemma_ != "star" or any(c.dep_ == "prep" and c.lower_ == "in" for c in v.children):
        return []  # "A starred in X": the verb path reads it
    on_verb = _pobjs(v, ("as",))
    dobjs = [c for c in v.children if c.dep_ == "dobj"]
    actors = [a for d in dobjs for a in (d, *d.conjuncts)]
    actors += [c for c in v.children if c.dep_ == "conj" and c.pos_ == "PROPN"]
    actors += [c for p in on_verb for c in p.conjuncts if _pobjs(c, ("as",))]
    keys = {w.key for w in works}
    out: list[Triple] = []
    bare = [a for a in dict.fromkeys(actors) if not _pobjs(a, ("as",))]
    for tok in dict.fromkeys(actors):  # the verb's "as P" is the part of the one actor without an "as" of its own
        roles = _pobjs(tok, ("as",)) or (on_verb if bare == [tok] else [])
        for actor in _names(tok, args):
            out += [(w, "cast_member", actor) for w in works]
            out += [(actor, PLAYS, m) for r in roles for m in _characters(r, args) if m.key not in keys]
    return out


def _role_noun(noun: Any) -> bool:
    return noun.pos_ == "NOUN" and noun.lemma_.lower() in ROLE_NOUNS and \
        any(c.dep_ == "poss" and c.lower_ in _POSSESSIVES for c in noun.children)


def known_for_role(v: Any) -> bool:
    """'known for her role as P': the parse may hang "as P" on the verb, which is no "known as" alias."""
    return any(_role_noun(g) for g in _pobjs(v, ("for",)))


def _clause_actor(tok: Any, args: Arguments, steps: int) -> Mention | None:
    """The one person subject of the clause `tok` hangs in, climbing at most `steps` heads."""
    clause = tok.head
    while not any(c.dep_ in SUBJ for c in clause.children) and clause.head.i != clause.i and steps > 0:
        clause, steps = clause.head, steps - 1
    actors = [m for s in clause.children if s.dep_ in SUBJ for m in args.resolve(s)
              if m.kind == "name" and m.target.label == "Person"]
    return actors[0] if len(actors) == 1 else None


def playing_facts(v: Any, args: Arguments) -> list[Triple]:
    """(actor, play, character), (actor, acted_in, work) for "<subject> is known ... for playing P on X": a
    gerund after "for" has no subject of its own; the clause's is the actor."""
    if v.lemma_ not in ("play", "portray") or v.tag_ != "VBG" or v.dep_ != "pcomp" or v.head.lower_ != "for":
        return []
    actor = _clause_actor(v, args, 6)
    if actor is None:
        return []
    characters = [m for c in v.children if c.dep_ == "dobj" for m in _characters(c, args) if m.target.label]
    works = [m for g in _pobjs(v, ("in", "on")) for m in _names(g, args) if m.target.label not in ("Person", "Place")]
    return [(actor, PLAYS, m) for m in characters] + [(actor, "acted_in", w) for w in works if characters]


def role_facts(noun: Any, args: Arguments) -> list[Triple]:
    """(actor, acted_in, work) and (actor, play, character) for "<subject> ... his/her role as P in X"."""
    if not _role_noun(noun):
        return []
    clause, steps = noun.head, 0
    while not any(c.dep_ in SUBJ for c in clause.children) and clause.head.i != clause.i and steps < 3:
        clause, steps = clause.head, steps + 1
    actors = [m for s in clause.children if s.dep_ in SUBJ for m in args.resolve(s)
              if m.kind == "name" and m.target.label == "Person"]
    if len(actors) != 1:
        return []
    parts = _pobjs(noun, ("as", "of"))
    if not parts and noun.head.lower_ == "for" and noun.head.head.i == clause.i:
        parts = _pobjs(clause, ("as",))  # "known for her role as P", "as" hung on "known"
    characters = [(p, m) for p in parts for m in _characters(p, args)]
    places = [g for p, _ in characters for g in _pobjs(p, ("in", "on"))] + _pobjs(noun, ("in", "on"))
    works = [m for g in places for m in _names(g, args) if m.target.label not in ("Person", "Place")]
    return [(actors[0], PLAYS, m) for _, m in characters] + [(actors[0], "acted_in", w) for w in works]
