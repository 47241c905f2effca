"""He/she across a paragraph: the person the previous sentence is about, when no one else could be meant.

The topic rule (arguments.py) resolves he/she to a section's first name when that name leads it. In
narrative and biographical text the person changes within a section ("Capt. X was born in Y. When a
lad he removed to Z."), so a subject he/she that the topic rule leaves unresolved stands for the
subject of the previous sentence when:

- the subject of that sentence's main verb is a named person (or a he/she resolved so: a chain of
  sentences about one person), and no unnamed subject already known ("the old bear", not "a mere
  lad") comes before the pronoun;
- no other named person appears in the previous sentence, nor in the pronoun's sentence before it
  (nor a proper noun the NER left untyped: it may be a person);
- both sentences lie in one paragraph (no blank line between) and one scope (never across a heading);
- the gender does not clash: a title ("Mr.", "Mrs.") or an earlier he/she for that person.

Anything else stays unresolved (no fact): a pronoun given to the wrong person is worse than none.
"""

from __future__ import annotations

import re
from typing import Any

from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["Antecedents"]

SUBJ = ("nsubj", "nsubjpass")
PERSON = "Person"
_MALE = frozenset("mr mr. sir lord king prince duke earl count baron capt capt. captain gen gen. general "
                  "col col. colonel father brother uncle son mister monsieur herr signor don".split())
_FEMALE = frozenset("mrs mrs. miss ms ms. lady queen princess duchess countess baroness madame mme mme. "
                    "mademoiselle mlle frau signora dona sister mother aunt daughter dame".split())
_PARAGRAPH = re.compile(r"\n[ \t]*\n")


def _indefinite(noun: Any) -> bool:
    """'a mere lad': a description (of the person himself, as often as not), not someone already known."""
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.children)


def _gender_of_words(words: list[str]) -> str | None:
    low = {w.lower() for w in words}
    male, female = bool(low & _MALE), bool(low & _FEMALE)
    return "he" if male and not female else "she" if female and not male else None


class Antecedents:
    """Resolves subject he/she of one parsed chunk to a named person of the previous sentence (module doc)."""

    def __init__(self, doc: Any, of: dict[int, Mention], scope: Any) -> None:
        self.doc, self.of, self.scope = doc, of, scope
        self.gender: dict[str, str] = {}  # person key -> the pronoun already used for them
        self._done: dict[int, Mention | None] = {}

    def resolve(self, tok: Any, depth: int = 0) -> Mention | None:
        """The named person (a mention, not a reference) `tok` ("he"/"she", a subject) stands for, or None."""
        if tok.i in self._done:
            return self._done[tok.i]
        self._done[tok.i] = None  # guards against cycles while resolving
        found = self._find(tok, depth)
        if found is not None:
            known = self.gender.setdefault(found.key, tok.lower_)
            if known != tok.lower_:
                found = None
        self._done[tok.i] = found
        return found

    def _find(self, tok: Any, depth: int) -> Mention | None:
        if tok.lower_ not in ("he", "she") or tok.dep_ not in SUBJ or depth > 8:
            return None
        return self.previous(tok.sent, tok.lower_, tok.i, depth)

    def previous(self, sent: Any, pronoun: str, upto: int | None = None, depth: int = 0) -> Mention | None:
        """The person the sentence before `sent` is about, if no other person is named there or in `sent`
        before token `upto` (its start if None), and `pronoun` (he/she) fits them (module docstring)."""
        if sent.start == 0:
            return None
        upto = sent.start if upto is None else upto
        prev = self.doc[sent.start - 1].sent
        between = self.doc.text[prev.start_char : self.doc[upto].idx]
        if self.scope(prev.start_char) != self.scope(self.doc[upto].idx) or _PARAGRAPH.search(between):
            return None
        candidate = next((s for t in prev if t.dep_ in SUBJ and t.head.dep_ == "ROOT"
                          and (s := self._person(t, depth)) is not None), None)
        if candidate is None or any(t.dep_ in SUBJ and t.pos_ == "NOUN" and not _indefinite(t)
                                    for t in self.doc[sent.start : upto]):
            return None  # "the old bear arose ... as if he had been": a known unnamed one is nearer
        near = (*prev, *self.doc[sent.start : upto])
        others = {s.key for t in near if (s := self._person(t, depth)) is not None}
        others |= {t.text for t in near if self._untyped_name(t)}
        if others != {candidate.key}:
            return None
        gender = self.gender.get(candidate.key) or self._title_gender(candidate)
        return candidate if gender in (None, pronoun) else None

    def _person(self, t: Any, depth: int) -> Mention | None:
        """The named person token `t` stands for: a person mention, or a he/she resolved before it."""
        m = self.of.get(t.i)
        if m is not None:
            m = m.target
            return m if m.kind == "name" and m.label == PERSON else None
        if t.pos_ == "PRON" and t.lower_ in ("he", "she") and t.dep_ in SUBJ:
            return self.resolve(t, depth + 1)
        return None

    def _untyped_name(self, t: Any) -> bool:
        """A proper noun outside every mention, and not a title or part of a mention's name ("Capt. X")."""
        return t.pos_ == "PROPN" and t.i not in self.of and t.text[:1].isalpha() and \
            t.lower_ not in _MALE | _FEMALE and not (t.dep_ == "compound" and t.head.i in self.of)

    def _title_gender(self, m: Mention) -> str | None:
        """'Mr. Stuart' -> he, 'Mrs. Hall' -> she: a title in the name or just before it."""
        span = self.doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            return None
        words = [t.text for t in span] + ([self.doc[span.start - 1].text] if span.start > 0 else [])
        return _gender_of_words(words)
