"""A place's neighbours, read from one sentence (dependency.py calls it):

"It is located in the east of the krai and borders with A, B, and C Districts, as well as with ...":
the small English model often parses "borders" as a noun there, so no verb relation comes out. The
sentence's subject must be a place (a he/she/it resolves to its section's topic as elsewhere); the
neighbours are the names after "borders" up to the end of the sentence or of its clause, a name after
"of" excepted ("Heilongjiang Province of China": China is where the province lies, not a neighbour).

The ontology has no border relation: "border_with" is the open relation the verb path gives when the
parse is right ("X borders with Y").
"""

from __future__ import annotations

from typing import Any

from memgraph_neo4j.extractors.offline.arguments import SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["BORDERS", "border_facts"]

Triple = tuple[Mention, str, Mention]
BORDERS = "border_with"
_VERB_FORMS = frozenset({"borders", "bordered"})
_CLAUSE_END = frozenset({";", "which", "who", "while", "whereas", "but"})


def border_facts(sent: Any, args: Arguments) -> list[Triple]:
    """(place, border_with, neighbour) for "<place subject> ... borders (with) A, B and C"."""
    word = next((t for t in sent if t.lower_ in _VERB_FORMS and t.i > sent.start
                 and not any(c.dep_ in ("det", "poss") for c in t.children)), None)
    if word is None:
        return []
    subjects = [m for t in sent if t.dep_ in SUBJ and t.i < word.i for m in args.resolve(t)
                if m.kind == "name" and m.target.label == "Place"]
    if len(subjects) != 1:
        return []
    out: list[Triple] = []
    for m in _neighbours(sent, word, args):
        if m.key != subjects[0].key and m.label not in ("Date", "Quantity", "Work"):
            out.append((subjects[0], BORDERS, m))
    return out


def _neighbours(sent: Any, word: Any, args: Arguments) -> list[Mention]:
    """The capitalised runs after `word` up to the clause's end ("Pogranichny District", "Zonalny"), each the
    mention the NER made of it when that is the same span, else a new mention, untyped (the NER cuts or
    misses them: "Pogranichny" alone, "Tselinny" nothing)."""
    doc, runs, run = sent.doc, [], []
    for t in doc[word.i + 1 : sent.end]:
        if t.lower_ in _CLAUSE_END or (t.pos_ in ("VERB", "AUX") and t.dep_ not in ("amod", "compound")):
            break
        if t.text[:1].isupper() and t.pos_ in ("PROPN", "ADJ", "NOUN"):
            run.append(t)
            continue
        if run:
            runs.append(run)
        run = [] if t.text != "-" else run
    runs += [run] if run else []
    out: list[Mention] = []
    for r in runs:
        if r[0].i > 0 and doc[r[0].i - 1].lower_ == "of":
            continue  # "Heilongjiang Province of China": where the neighbour lies
        start, end = r[0].idx, r[-1].idx + len(r[-1])
        known = args.of.get(r[0].i)
        if known is not None and known.start == start and known.end >= end:
            out.append(known)
        elif known is None or known.label != "Person" or known.start == start:
            key = (r[0].i, r[-1].i)
            args.new.setdefault(key, Mention(start, end, doc.text[start:end], "name"))
            out.append(args.new[key])
    return list({id(m): m for m in out}.values())
