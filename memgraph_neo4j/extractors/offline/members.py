"""A group's members listed after "members" (dependency.py calls it per noun):

"Its members were Richard Morgan on vocals, Richard Price on guitar and Gerry Turner on drums", "Notable
former members include Jeremy Seysses, Arabella Woodrow and Alex Hunt", "The members of Caifanes were A
and B" -> (member, member_of, group) for each name of the list.

The plural noun "members" must be the subject of "be" or "include"; the list is the verb's object with its
conjuncts and appositions (the small model hangs a long list as a chain of appositions), not the names
inside them ("Jeremy Seysses of Domaine Dujac": a member's own affiliation) nor one in brackets ('Richard
Morgan (aka "Wretch")': his alias). The group is the name after "of", else the one "its"/"their"/"the
band's" stands for, else, with no owner written, the topic of the scope: in either case only when the topic
is an organisation or a group (a person's or a place's passage does not list "members" of the topic).
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["member_facts"]

Triple = tuple[Mention, str, Mention]
_VERBS = frozenset({"be", "include"})
_GROUPS = frozenset({"Organization", "Group"})
_NOT_MEMBERS = frozenset({"Date", "Quantity", "Work", "Event"})
_OPEN = frozenset({"(", "[", "\"", "\u201c", "aka"})


def member_facts(noun: Any, args: Arguments) -> list[Triple]:
    """(member, member_of, group) for '<group's> members were/include A, B and C'."""
    if noun.lower_ != "members" or noun.dep_ not in SUBJ or noun.head.lemma_ not in _VERBS:
        return []
    groups = _group(noun, args)
    if len(groups) != 1:
        return []
    group = groups[0]
    out: list[Triple] = []
    for tok in _listed(noun.head):
        out += [(m, "member_of", group) for m in args.resolve(tok)
                if m.kind == "name" and m.ref is None and m.label not in _NOT_MEMBERS and m.key != group.target.key]
    return list({(h.key, t.key): (h, r, t) for h, r, t in out}.values())


def _group(noun: Any, args: Arguments) -> list[Mention]:
    """The group the members belong to: "of X", "its"/"their"/"the band's", else the scope's topic."""
    of = [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
    if of:
        named = [m for g in of for m in args.resolve(g) if m.kind == "name" and m.ref is None]
        if named:
            return named
        return _topic(noun, args) if of[0].lemma_.lower() in args.topic_nouns[args.scope(noun.idx)] else []
    poss = [c for c in noun.children if c.dep_ == "poss"]
    if poss and poss[0].lower_ not in ("its", "their") and poss[0].lemma_.lower() not in \
            args.topic_nouns[args.scope(noun.idx)]:
        return [m for m in args.resolve(poss[0]) if m.kind == "name" and m.ref is None]  # "Caifanes' members"
    if any(c.dep_ == "det" and c.lower_ not in ("the",) for c in noun.children):
        return []  # "some members", "these members": not the whole topic's list
    return _topic(noun, args)


def _topic(noun: Any, args: Arguments) -> list[Mention]:
    topic = args.topic(noun)
    if topic is None or topic.target.label not in _GROUPS:
        return []
    return [Mention(noun.idx, noun.idx + len(noun), noun.text, "name", ref=topic)]


def _listed(verb: Any) -> list[Any]:
    """The verb's object and the list hanging on it (conjuncts, appositions), bracketed asides left out."""
    out, todo = [], [c for c in verb.children if c.dep_ in ("attr", "dobj")]
    while todo:
        tok = todo.pop()
        left = tok.doc[tok.left_edge.i - 1] if tok.left_edge.i > 0 else None
        if tok.dep_ == "appos" and (left is not None and left.text in _OPEN or tok.left_edge.text in _OPEN):
            continue
        out.append(tok)
        todo += [c for c in tok.children if c.dep_ in ("conj", "appos")]
        # "B on guitar and C on drums": the parse hangs C on the instrument, a common noun
        todo += [c for p in tok.children if p.dep_ == "prep" for g in p.children if g.dep_ == "pobj"
                 and g.pos_ == "NOUN" for c in g.children if c.dep_ == "conj" and c.pos_ == "PROPN"]
    return out
