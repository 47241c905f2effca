"""Arguments of the dependency relations: which mention a token of the parse stands for.

A token inside a mention is that mention; a relative pronoun is its antecedent ("X, who ...");
he/she/it as a subject, and "the <class noun>" ("The river flows ..."), are the topic of their scope
(the chunk, or its section when headings divide it: never across a heading) when that topic is the
subject of the scope's first sentence (unresolved, they stand for nothing: no fact); a class noun in
"X is a film directed by Y" is X;
a proper-noun phrase the NER missed ("Battle of Britain") becomes a new mention, a span of the text.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from memgraph_neo4j.extractors.offline.ner import Mention
from memgraph_neo4j.extractors.offline.verbs import WORK_GENRES

__all__ = ["COPULAS", "NEAR", "SUBJ", "Arguments", "such_as"]

SUBJ = ("nsubj", "nsubjpass", "csubj")  # csubj: a title the parse reads as a clause ("\"Too Good to Last\" is a song")
COPULAS = frozenset({"be", "become", "remain"})
REL_PRONOUNS = frozenset({"who", "which", "that", "whom"})
# class nouns too vague to type their subject by ("X is a model" may be a person)
AMBIGUOUS_CLASS = frozenset({"model", "title", "rank", "office", "position", "show", "record", "value", "state"})
NEAR = 10  # tokens between a relative pronoun or a participle and the noun it hangs on, at most
_NOT_WHO = frozenset({"Work", "Place", "Date", "Product", "Event", "Quantity"})
_KIND_TYPES = frozenset({"Work", "Organization"})  # a place or person topic is not read from "the city"/"the man"
_THEY = frozenset({"Organization", "Group"})  # a topic "they" may stand for
_MONTHS = frozenset("january february march april may june july august september october november december".split())


class Arguments:
    """Token -> mention for one parsed chunk; pronouns -> the topic; missed proper nouns -> new mentions."""

    def __init__(self, doc: Any, mentions: list[Mention], topics: Sequence[Mention | None],
                 type_of: Callable[[str], str | None], topic_nouns: Sequence[frozenset[str]] = (),
                 noun_type: Callable[[str], str | None] = lambda _: None, scopes: Sequence[int] = (0,)) -> None:
        """`scopes`: where each scope starts (char offsets, the first 0); `topics` and `topic_nouns`: the
        first named entity of each scope and the nouns that stand for it ("The river flows ...")."""
        self.doc = doc
        self.type_of = type_of
        self.noun_type = noun_type
        self.scopes = list(scopes)
        self.topic_nouns = [frozenset(n) for n in topic_nouns] or [frozenset()] * len(self.scopes)
        self.of: dict[int, Mention] = {}
        self.classed: set[str] = set()  # names typed by their own class noun ("X is a film")
        for m in mentions:
            if m.ref is None:
                for t in doc.char_span(m.start, m.end, alignment_mode="expand") or ():
                    self.of.setdefault(t.i, m)
        self._class_types()
        self.topics = [self._leads(i, t) if t is not None else None for i, t in enumerate(topics)]
        self.new: dict[tuple[int, int], Mention] = {}

    def scope(self, offset: int) -> int:
        return max(bisect_right(self.scopes, offset) - 1, 0)

    def topic(self, tok: Any) -> Mention | None:
        """The topic a pronoun or "the <noun>" at `tok` may stand for: its own scope's, else none."""
        return self.topics[self.scope(tok.idx)]

    def _class_types(self) -> None:
        """'X is a 2005 film', 'X, a river in ...': the class noun types X better than the NER label does."""
        for tok in self.doc:
            if tok.pos_ != "NOUN" or tok.i in self.of or tok.lower_ in AMBIGUOUS_CLASS:
                continue
            if tok.dep_ == "attr" and tok.head.lemma_ in COPULAS:
                subjects = [s for s in tok.head.children if s.dep_ in SUBJ]
            elif tok.dep_ == "appos":
                subjects = [tok.head]
            else:
                continue
            lemma = tok.lemma_.lower()
            typ = self.noun_type(lemma) or (self.noun_type("work") if lemma.rsplit("-", 1)[-1] in WORK_GENRES else None)
            for s in subjects:
                if typ is not None and (m := self.of.get(s.i)) is not None and m.kind == "name":
                    m.label = typ
                    self.classed.add(m.key)

    def _leads(self, n: int, topic: Mention) -> Mention | None:
        """The topic stands for he/she/it only as the subject of its scope's first sentence (a scope that
        opens with a heading line: the first sentence after it); then the subject's mention is returned.

        Its class noun there ("X is a peer-reviewed journal", "X, a river ...") joins the topic nouns.
        """
        start = self.scopes[n]
        end = self.scopes[n + 1] if n + 1 < len(self.scopes) else len(self.doc.text)
        if n:  # a later scope opens with its heading line; the parse may run one sentence across it
            line_end = self.doc.text.find("\n", start, end)
            start = end if line_end < 0 else line_end
        first = next((t.sent for t in self.doc if start <= t.idx < end and not t.is_space), None)
        subjects = [t for t in (first or ()) if t.dep_ in SUBJ and start <= t.idx < end
                    and (m := self.of.get(t.i)) is not None and (m is topic or m.key == topic.key)]
        nouns = {a.lemma_.lower() for t in subjects for a in (*t.head.children, *t.children)
                 if (a.dep_ == "attr" and t.head.lemma_ in COPULAS or a.dep_ == "appos") and a.pos_ == "NOUN"}
        self.topic_nouns[n] = self.topic_nouns[n] | nouns
        return self.of[subjects[0].i] if subjects else None

    def resolve(self, tok: Any, depth: int = 0) -> list[Mention]:
        if depth > 4:
            return []
        if (m := self.of.get(tok.i)) is not None:
            return [m]
        if tok.pos_ == "PRON":
            if tok.lower_ in REL_PRONOUNS and tok.head.dep_ == "relcl" and 0 < tok.i - tok.head.head.i <= NEAR:
                return [m for m in self.resolve(tok.head.head, depth + 1) if _agrees(tok.lower_, m)]
            return self._pronoun(tok)
        if tok.pos_ == "PROPN":
            return self._proper(tok)
        if tok.pos_ == "NOUN":
            topic = self.topic(tok)
            own = tok.lemma_.lower() in self.topic_nouns[self.scope(tok.idx)]
            if tok.dep_ in SUBJ and topic is not None and (own or self._kind_of(tok, topic)) \
                    and any(c.dep_ == "det" and c.lower_ in ("the", "this") for c in tok.children):
                return [Mention(tok.idx, tok.idx + len(tok), tok.text, "name", ref=topic, by_kind=not own)]
            for c in tok.children:  # "the film Critters", "his brother, John"
                if c.dep_ == "appos" and (c.i in self.of or c.pos_ == "PROPN") and c.i - tok.i <= 3:
                    return self.resolve(c, depth + 1)
            if tok.dep_ == "attr" and tok.head.lemma_ in COPULAS:  # "X is a film directed by Y"
                return [m for s in tok.head.children if s.dep_ in SUBJ for m in self.resolve(s, depth + 1)]
            if tok.dep_ == "appos":  # "X, a film directed by Y"
                return self.resolve(tok.head, depth + 1)
        return []

    def _kind_of(self, tok: Any, topic: Mention) -> bool:
        """"The series was produced by ...": a work or organisation noun other than the topic's own class
        noun names the topic when its own class noun gave it that type ("X was a soap opera": a Work, so is a
        series; a league the NER calls an organisation is not "the team")."""
        lemma = tok.lemma_.lower()
        typ = self.noun_type(lemma) or ("Work" if lemma in WORK_GENRES else None)
        return typ in _KIND_TYPES and topic.target.label == typ and topic.key in self.classed

    def expand(self, tok: Any) -> list[Mention]:
        """The token's mentions and those of its conjuncts ("X and Y founded Z")."""
        out = self.resolve(tok)
        for c in tok.conjuncts:
            if c.i > tok.i:
                out += self.resolve(c)
        return out

    def _pronoun(self, tok: Any) -> list[Mention]:
        topic, low = self.topic(tok), tok.lower_
        if topic is None or tok.dep_ not in SUBJ:
            return []
        person = topic.label == "Person"
        agrees = ((low in ("he", "she") and person) or (low == "it" and not person and topic.label is not None)
                  or (low == "they" and topic.label in _THEY))  # "Based in Mexico City, they are led by X": a band
        return [Mention(tok.idx, tok.idx + len(tok), tok.text, "name", ref=topic)] if agrees else []

    def _proper(self, tok: Any) -> list[Mention]:
        """A proper-noun phrase the NER missed ("Battle of Britain"), as a new mention."""
        doc, left, right = self.doc, tok.i, tok.i
        while left > tok.sent.start and doc[left - 1].head.i == tok.i and doc[left - 1].dep_ == "compound" \
                and doc[left - 1].pos_ == "PROPN" and doc[left - 1].text[0].isalnum():
            left -= 1
        for c in tok.rights:
            if c.dep_ == "prep" and c.i == right + 1 and c.lower_ in ("of", "de"):
                pobj = [g for g in c.children if g.dep_ == "pobj" and g.pos_ == "PROPN"]
                if pobj and all(t.pos_ in ("PROPN", "DET", "ADP", "CCONJ") for t in doc[c.i : pobj[0].i + 1]):
                    right = pobj[0].i
            break
        known = next((self.of[i] for i in range(left, tok.i) if i in self.of), None)
        if known is not None and tok.text.isupper() and len(tok.text) <= 5:
            return [known]  # "Richey CIE": the name's post-nominal letters, not a name of their own
        if (left, right) not in self.new:
            span = doc[left : right + 1]
            if span.text.lower() in _MONTHS or len(span.text) < 2 or not span.text[0].isupper():
                return []
            if left == right and any(c.dep_ == "det" for c in tok.children) and not _quoted(span):
                return []  # "The Institute ...": a capitalised common noun, not a name (a title in quotes is)
            name = span.text
            self.new[(left, right)] = Mention(span.start_char, span.end_char, name, "name", self.type_of(name))
        return [self.new[(left, right)]]


def _agrees(pronoun: str, antecedent: Mention) -> bool:
    """'who' is not a film or a place, 'which' is not a person: else the parse hung the clause wrongly."""
    label = antecedent.target.label
    return not ((pronoun in ("who", "whom") and label in _NOT_WHO) or (pronoun == "which" and label == "Person"))


def _quoted(span: Any) -> bool:
    """'the series "Scream"': the words stand between quotes of their own."""
    text, start, end = span.doc.text, span.start_char, span.end_char
    return start > 0 and text[start - 1] in "\"\u201c" and text[end : end + 1] in ("\"", "\u201d")


def such_as(noun: Any) -> list[Any]:
    """'starred in films such as "The Craft" and "Panic"': the named examples of an unnamed noun."""
    if noun.pos_ != "NOUN":
        return []
    return [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "as" and c.i > noun.i
            and (any(s.lower_ == "such" for s in c.children) or noun.doc[c.i - 1].lower_ == "such")
            for g in c.children if g.dep_ == "pobj"]
