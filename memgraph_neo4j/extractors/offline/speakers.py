"""Chat turns for the offline extractor: who "I" and "you" are, and which words are no entities.

A conversation message reaches the extractor as "Speaker: text" (ingest/episodes.py) with its
speaker and the conversation's other participants on the ``ExtractionInput``. Then:

- the parse sees the message without its "Speaker:" prefix (blanked to spaces, so offsets hold):
  with it, spaCy took the name for the sentence's root and hung the verb on it ("Caroline: I moved
  to Porto" parsed "moved" as a clause of "Caroline"), and the NER ran the name into the next word
  ("Maria: Yep" as one PERSON). The prefix itself is the speaker's mention (type Person);
- "I" as the subject of a stated verb is the speaker; "you" is the addressee when the conversation
  has exactly one other participant (with more, or none known, "you" stands for nobody: no fact).
  Not "we": the group is unnamed (the speaker's family, team, or both speakers), so a fact about it
  is not a fact about the speaker alone. Not "my": "my sister" is someone else. Only stated facts:
  no questions ("Did you move to Porto?"), no modals ("I would move to Porto"), no wishes or plans
  ("I want to visit Japan"), no conditions ("if I move to Porto"); negation is the parser's rule;
- discourse words are no entities ("Congrats", "Glad", "Wow", "Haha", "Yep", "100%"): a word the
  tagger calls an interjection; a sentence-initial word that the tagger, given the sentence with that
  word in lower case, does not call a proper noun (capitalised by position only: "Glad" -> ADJ,
  "Nature" -> NOUN, while "Porto" stays PROPN); laughter and chat acronyms the small model tags as
  proper nouns even in lower case ("haha", "aww", "omg"); a percentage that is not a share of
  something ("100%!", "I'm 100% sure"; "20% of the budget" stays).

The speaker's mention is a span of the message (its prefix); the addressee usually is not: it is
the conversation's other participant, the same name as that person's own messages' speaker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from memgraph_neo4j.contracts import ExtractionInput
from memgraph_neo4j.extractors.offline.arguments import COPULAS, SUBJ, Arguments
from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["ChatArguments", "ChatTurn", "add_speaker", "arguments_for", "chat_doc", "chat_turn", "discourse_free",
           "idle_speaker",
           "parse_text", "stated"]

TURN = "memgraph_neo4j.chat_turn"  # the Doc.user_data key of a parse's chat turn
COMMON = "memgraph_neo4j.common_initials"  # ... and of its sentence-initial common words (token ids)

PERSON = "Person"
FIRST_PERSON = frozenset({"i"})
SECOND_PERSON = frozenset({"you"})
# verbs whose complement is not (yet) a fact: "I want to visit Japan", "I'm planning to move"
WISH_LEMMAS = frozenset("want hope plan wish intend consider dream think need try would decide expect aim mean "
                        "gon wanna".split())
MOTION_LEMMAS = frozenset("go move travel fly relocate visit".split())  # in the progressive: a plan
# a clause under these is a condition or a backdrop, not the statement: "if I move", "when I was a kid"
CONDITION_MARKS = frozenset({"if", "unless", "whether", "once", "when", "while", "until", "before", "since"})
# laughter and drawn-out sounds ("hahaha", "awww", "ohhh", "hmm"); acronyms the small model tags PROPN
_SOUND = re.compile(r"(?:ha|he|hi|ja){2,}h?|a+w+|o+h+|u+g+h+|h+m+|m+h?m+|w+o+w+|y+a+y+", re.IGNORECASE)
# and greetings, replies and contractions it tags PROPN even in lower case ("yep, taking care ..." -> PROPN)
CHAT_WORDS = frozenset("lol lmao rofl omg omfg btw brb idk imo imho tbh smh ty thx np ikr fyi yep yup yeah nope nah "
                       "hey hi hello bye congrats thanks wanna gonna gotta kinda sorta dunno lemme gimme ya".split())
_PERCENT = re.compile(r"\d[\d.,]*\s*(?:%|per\s*cent|percent)$", re.IGNORECASE)
VOCATIVE_END = frozenset({",", "!", ".", "?", "!!", "...", ";"})
_SHARE = re.compile(r"\s+of\b", re.IGNORECASE)  # "20% of ..."


@dataclass(frozen=True)
class ChatTurn:
    speaker: str
    start: int  # where the speaker's name starts in the text
    prefix: int  # length of "Speaker:" at the start of the text (0: the text does not start with it)
    addressee: str | None

    def speaker_mention(self) -> Mention | None:
        """The prefix's name as the speaker's mention (a span of the text); None without a prefix."""
        end = self.start + len(self.speaker)
        return Mention(self.start, end, self.speaker, "name", PERSON) if self.prefix else None


def chat_turn(item: ExtractionInput) -> ChatTurn | None:
    """The chat context of an input: None unless it names its speaker."""
    speaker = (item.speaker or "").strip()
    if not speaker:
        return None
    start = len(item.text) - len(item.text.lstrip())
    rest = item.text[start + len(speaker) :]
    prefix = start + len(speaker) + rest.index(":") + 1 if item.text.startswith(speaker, start) and \
        rest.lstrip(" ").startswith(":") else 0
    others = [p for p in dict.fromkeys(p.strip() for p in item.listeners) if p and p != speaker]
    return ChatTurn(speaker, start, prefix, others[0] if len(others) == 1 else None)


def parse_text(item: ExtractionInput) -> str:
    """The text the parser sees: a chat turn's "Speaker:" prefix blanked to spaces (same offsets)."""
    turn = chat_turn(item)
    return " " * turn.prefix + item.text[turn.prefix :] if turn is not None else item.text


def chat_doc(doc: Any, item: ExtractionInput) -> Any:
    """The parse, carrying the input's chat turn in its `user_data` (what spaCy keeps it for) for the
    extractor's later steps; unchanged for other inputs and without spaCy."""
    if doc is not None and (turn := chat_turn(item)) is not None:
        doc.user_data[TURN] = turn
    return doc


def turn_of(doc: Any) -> ChatTurn | None:
    return doc.user_data.get(TURN) if doc is not None else None


def add_speaker(sentences: list[list[Mention]], doc: Any) -> None:
    """The speaker's mention joins the first sentence's (after the topics are chosen: "she" is never the speaker)."""
    if (turn := turn_of(doc)) is not None and sentences and (speaker := turn.speaker_mention()) is not None:
        sentences[0].insert(0, speaker)


def idle_speaker(doc: Any, facts: Iterable[tuple[str, str, str]]) -> str | None:
    """The key of a chat turn's speaker when none of the turn's facts names them: then the speaker is no
    entity of the turn (the Episode's SPOKEN_BY already links them) and pairs with no name by co-occurrence.
    Named in every message, the speaker tied each to their other messages: LoCoMo temporal R@5 of
    system1+context fell 0.583 -> 0.565 with the speaker in all 5,882 messages' entities."""
    if (turn := turn_of(doc)) is None or (speaker := turn.speaker_mention()) is None:
        return None
    return None if any(speaker.key in (h, t) for h, _, t in facts) else speaker.key


def arguments_for(doc: Any) -> Callable[..., Arguments]:
    """`Arguments`, or for a chat turn `ChatArguments` that know who "I" and "you" are."""
    turn = turn_of(doc)
    return Arguments if turn is None else partial(ChatArguments, turn)


# -- discourse words ----------------------------------------------------------------------------------


def discourse_free(ments: list[Mention], doc: Any, nlp: Any) -> list[Mention]:
    """A chat turn's mentions without discourse words (module docstring): dropped, or trimmed off a name's
    edge ("Hey Sam" -> "Sam"). `nlp` re-tags the sentences that start with a capitalised proper noun or
    mention; the common words found so are kept on the parse for `ChatArguments` too."""
    if (turn := turn_of(doc)) is None:
        return ments
    initial = doc.user_data[COMMON] = _initial_common_words({m.start for m in ments if m.kind == "name"}, doc, nlp)
    out = []
    for m in ments:
        if m.kind == "quantity" and _PERCENT.search(m.text) and not _SHARE.match(doc.text, m.end):
            continue
        kept = m if m.kind != "name" or m.end <= turn.prefix else _trimmed(m, doc, initial)
        out += [kept] if kept is not None else []
    return out


def _trimmed(m: Mention, doc: Any, initial: dict[int, str]) -> Mention | None:
    """The name without discourse words at its edges ("Hey Sam" -> "Sam"); None if nothing is left, or if
    it is one sentence-initial common word."""
    toks = [t for t in (doc.char_span(m.start, m.end, alignment_mode="expand") or ()) if not t.is_space]
    while toks and (_discourse(toks[0]) or (len(toks) > 1 and initial.get(toks[0].i) == "INTJ")):
        toks.pop(0)
    while toks and _discourse(toks[-1]):
        toks.pop()
    if not toks or (len(toks) == 1 and toks[0].i in initial):
        return None
    start, end = max(m.start, toks[0].idx), min(m.end, toks[-1].idx + len(toks[-1]))
    return m if (start, end) == (m.start, m.end) else Mention(start, end, doc.text[start:end], m.kind, m.label, m.ref)


def _interjection(tok: Any) -> bool:
    return tok.pos_ == "INTJ" or tok.tag_ == "UH"


def _discourse(tok: Any) -> bool:
    low = tok.lower_
    return (_interjection(tok) or low in CHAT_WORDS or _SOUND.fullmatch(low) is not None
            or not any(c.isalnum() for c in tok.text))


def _initial_common_words(starts: set[int], doc: Any, nlp: Any) -> dict[int, str]:
    """Token ids (-> part of speech) of capitalised sentence-initial words that start a mention (`starts`) or are tagged
    proper nouns, and are common words: the sentence re-tagged with that word in lower case gives it
    another part of speech than a proper noun ("Glad you liked it" -> ADJ; "Porto is lovely" -> PROPN)."""
    todo = []
    for sent in doc.sents:
        first = next((t for t in sent if t.is_alpha), None)
        if first is not None and first.text[:1].isupper() and (first.idx in starts or first.pos_ == "PROPN"):
            todo.append((first, sent))
    if not todo or nlp is None:
        return {}
    texts = [s.text[: t.idx - s.start_char] + t.lower_ + s.text[t.idx - s.start_char + len(t) :] for t, s in todo]
    out = {}
    for (tok, sent), retagged in zip(todo, nlp.pipe(texts, disable=["parser", "ner", "lemmatizer"]), strict=True):
        word = next((w for w in retagged if w.idx == tok.idx - sent.start_char), None)
        if word is not None and word.pos_ != "PROPN":
            out[tok.i] = word.pos_
    return out


# -- first and second person --------------------------------------------------------------------------


def stated(tok: Any) -> bool:
    """Whether the clause of this subject states something: not a question, and its verb (or the verb
    it is coordinated with) has no modal, no condition and no wish or plan over it."""
    if tok.sent.text.rstrip().endswith("?"):
        return False
    verb, chain = tok.head, [tok.head]
    while chain[-1].dep_ == "conj" and chain[-1].head.i != chain[-1].i:
        chain.append(chain[-1].head)
    for v in chain:
        if any(c.tag_ == "MD" or (c.dep_ in ("mark", "advmod") and c.lower_ in CONDITION_MARKS) for c in v.children):
            return False
    wish = verb.lemma_.lower() in WISH_LEMMAS or verb.lower_ in ("going", "gon")  # "I'm going to / gonna move"
    if verb.tag_ == "VBG" and verb.lemma_.lower() in MOTION_LEMMAS:
        return False  # "I'm going to Tokyo next month", "I'm moving to Porto": a plan, not yet a fact
    return not (wish and any(c.dep_ in ("xcomp", "ccomp") for c in verb.children))


class ChatArguments(Arguments):
    """Arguments that also resolve "I" to the speaker and "you" to the addressee (module docstring)."""

    def __init__(self, turn: ChatTurn, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turn = turn
        self.speaker = turn.speaker_mention()
        # the pronouns join the token -> mention map as named subjects do: a verb whose range allows one
        # type may then correct the NER ("I moved to Porto", Porto tagged PERSON: a place)
        for tok in self.doc:
            if tok.pos_ == "PRON" and tok.dep_ in SUBJ and tok.i not in self.of and \
                    (person := self._person(tok)) is not None:
                self.of[tok.i] = person

    def _person(self, tok: Any) -> Mention | None:
        """"I" as the speaker, "you" as the addressee, in a stated clause; else None."""
        low = tok.lower_
        if low not in FIRST_PERSON | SECOND_PERSON or not stated(tok):
            return None
        if low in FIRST_PERSON:
            target = self.speaker
        elif tok.head.lemma_ in COPULAS:
            return None  # "you're an inspiration, a great friend, an amazing parent": praise, not a class
        elif self.turn.addressee is not None and self._names_after(tok):
            # not a span of the text: the other participant, written as an entity at the pronoun
            target = self.new.setdefault((tok.i, tok.i), Mention(tok.idx, tok.idx + len(tok), self.turn.addressee,
                                                                 "name", PERSON))
        else:
            target = None
        return None if target is None else Mention(tok.idx, tok.idx + len(tok), tok.text, "name", ref=target)

    def resolve(self, tok: Any, depth: int = 0) -> list[Mention]:
        if tok.pos_ == "PRON" and tok.lower_ in FIRST_PERSON | SECOND_PERSON:
            return [self.of[tok.i]] if tok.i in self.of else []  # (the parser's he/she rule would say nothing)
        return [m for m in super().resolve(tok, depth) if m.ref is not None or not self._vocative(m)]

    def _names_after(self, tok: Any) -> bool:
        """Whether the subject's clause names anything after it: else "Glad you liked it" would make the
        addressee an entity of every message that says "you" (and a co-occurrence with the speaker)."""
        return any((t.i in self.of and self.of[t.i].kind == "name" and self.of[t.i].ref is None) or t.pos_ == "PROPN"
                   for t in tok.head.subtree if t.i > tok.i)

    def _vocative(self, m: Mention) -> bool:
        """A name set off by punctuation at the edge of its clause ("Hey Maria, I went ...", "Thanks, Mel!")
        is who is spoken to, never a fact's argument: the parser often took it for the subject."""
        span = self.doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            return False
        before = next((t for t in reversed(self.doc[span.sent.start : span.start]) if not _discourse(t) or
                       t.text in ",;:-"), None)
        after = self.doc[span.end] if span.end < span.sent.end else None
        return (before is None or before.text in ",;:-") and (after is None or after.text in VOCATIVE_END)

    def _proper(self, tok: Any) -> list[Mention]:
        """No "Haha", "Wow" or "Hey Maria" as a proper noun the NER missed: trimmed as the NER's names are."""
        initial = self.doc.user_data.get(COMMON, {})
        out = []
        for m in super()._proper(tok):
            kept = _trimmed(m, self.doc, initial)
            if kept is not m:  # the trimmed name, or nothing, stands for these tokens from now on
                self.new = {k: (kept if v is m else v) for k, v in self.new.items() if v is not m or kept is not None}
            out += [kept] if kept is not None else []
        return out
