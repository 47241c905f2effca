"""Chat turns for the LLM extractors: what the prompt says about a conversation message, and the guard on the
model's reply.

A message reaches an extractor as "Speaker: text" with its speaker, the conversation's other participants
and its time on the ExtractionInput (ingest/episodes.py), as for the offline extractor
(extractors/offline/speakers.py). `chat_block` names them in the user message, with the rules: "I" is the
speaker, "you" the addressee, no entities of interjections, and undated facts hold from the message's time
(their `time` stays null: memory/validity.py then makes the message's time their `valid_at`, as for offline
facts). The system message is left alone, so documents get the same prompt as before, byte for byte.

`guard_turn` then holds a model that ignores the rules to them:

- a bare first-person pronoun as a fact's head or tail or as an entity ("I", "me", "my", "myself") is the
  speaker; a second-person one ("you", "your") the addressee when the conversation has exactly one other
  participant, else the fact is dropped; "we", "us", "our" are an unnamed group (the speaker's family, team,
  or both speakers), so their facts are dropped, as offline;
- reaction words are no entities: a name made only of words like "Congrats", "Glad", "Wow", "Haha",
  "Thank you" that the message uses only where a sentence opens ("Congrats!", "Oh wow, glad you ..."), so
  "I moved to Nice" keeps Nice; and a percentage that is no share of something ("100%!", "I'm 100% sure";
  "20% of the budget" stays). Without a tagger a sentence-initial place of that name ("Nice is lovely") goes
  too: a rare loss, where an entity "Glad" in every other chat was the common one;
- a fact whose two ends became one entity ("I" and "me") is dropped.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionInput

__all__ = ["addressee", "chat_block", "guard_turn", "is_turn", "others", "turn_names"]

PERSON = "Person"
FIRST_PERSON = frozenset("i me my mine myself".split())
SECOND_PERSON = frozenset("you your yours yourself yourselves".split())
GROUP = frozenset("we us our ours ourselves".split())
# reactions, greetings and interjections: no entity is made only of these
REACTIONS = frozenset(
    "congrats congratulations glad wow awesome cool great nice amazing wonderful fantastic lovely sweet sure okay ok "
    "yes yeah yep yup yay no nope nah thanks thank thx ty sorry oops omg lol lmao rofl hey hi hello bye goodbye "
    "welcome cheers absolutely totally definitely exactly indeed agreed right alright well oh ah aw whoa ugh phew "
    "good bravo hooray yikes gosh".split())
FILLERS = frozenset("you so very much really too my god job done luck".split())  # "thank you", "great job"
_SOUND = re.compile(r"(?:ha|he|hi|ja){2,}h?|a+w+|o+h+|u+g+h+|h+m+|m+h?m+|w+o+w+|y+a+y+")
_PERCENT = re.compile(r"(\d[\d.,]*)\s*(?:%|per\s*cent|percent)")
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?\u2026]")


def is_turn(item: ExtractionInput) -> bool:
    """Whether the input is a conversation message (it names its speaker)."""
    return bool((item.speaker or "").strip())


def others(item: ExtractionInput) -> list[str]:
    """The conversation's other participants, in order, without the speaker."""
    speaker = (item.speaker or "").strip()
    return [p for p in dict.fromkeys(p.strip() for p in item.listeners) if p and p != speaker]


def addressee(item: ExtractionInput) -> str | None:
    """Who "you" is: the one other participant; None with several or none."""
    rest = others(item)
    return rest[0] if len(rest) == 1 else None


def turn_names(item: ExtractionInput) -> list[str]:
    """The names a message's facts may use without the text stating them (the addressee is rarely named)."""
    return [item.speaker.strip(), *others(item)] if is_turn(item) else []


def _when(moment: datetime) -> str:
    moment = moment.astimezone(UTC) if moment.tzinfo else moment
    clock = f", {moment:%H:%M}" + (" UTC" if moment.tzinfo else "") if (moment.hour, moment.minute) != (0, 0) else ""
    return f"{moment.day} {moment:%B %Y}{clock}"


def chat_block(item: ExtractionInput) -> str:
    """Who speaks to whom and when, and how the message's pronouns, interjections and times are written."""
    speaker, rest, you = item.speaker.strip(), others(item), addressee(item)
    lines = ['Conversation - the passage is one message, written "Speaker: text".', f"Speaker: {speaker}"]
    if you is not None:
        lines.append(f"Addressee: {you}")
        second = f'"you", "your" as {you}'
    elif rest:
        lines.append(f"Addressees (the other participants): {', '.join(rest)}")
        second = '"you", "your" as the addressee the message names; when it names none, no fact'
    else:
        lines.append("Addressee: unknown")
        second = 'no fact about "you", "your" (the addressee is unknown)'
    if item.said_at is not None:
        lines.append(f"Message time: {_when(item.said_at)}")
    lines += [f'- Write "I", "me", "my" as {speaker} and {second}; never make an entity of a pronoun.',
              '- "we", "us", "our" are an unnamed group: no fact about them.',
              '- No entities of interjections, greetings or reactions ("Congrats", "Glad", "Wow", "Haha", "100%").',
              "- Only what the message states as true: no facts from questions, plans, wishes or conditions."]
    if item.said_at is not None:
        lines.append('- time: a date the message gives for the fact, relative ones ("last year") resolved against '
                     "the message time; null for a current state or an event it does not date: the fact then "
                     "holds from the message time.")
    return "\n".join(lines)


# -- the guard on the reply -----------------------------------------------------------------------------


def _words(name: str) -> list[str]:
    return _WORD.findall(name.casefold())


def _reaction_words(words: list[str]) -> bool:
    react = [w in REACTIONS or _SOUND.fullmatch(w) is not None for w in words]
    return bool(words) and any(react) and all(r or w in FILLERS for r, w in zip(react, words, strict=True))


def _body(item: ExtractionInput) -> str:
    """The message without its "Speaker:" prefix."""
    speaker, text = item.speaker.strip(), item.text.lstrip()
    if text.startswith(speaker) and text[len(speaker):].lstrip(" ").startswith(":"):
        return text[len(speaker):].lstrip(" ")[1:]
    return text


def _opens_sentence(before: str) -> bool:
    """Whether a word after `before` opens its sentence: nothing but reactions since the last sentence end."""
    tail = _SENTENCE_END.split(before)[-1]
    return not _words(tail) or _reaction_words(_words(tail))


def _interjection(name: str, body: str) -> bool:
    """A reaction word the message uses only where a sentence opens, or a percentage that is no share."""
    if (percent := _PERCENT.fullmatch(name.strip())) is not None:
        return re.search(re.escape(percent.group(1)) + r"\s*(?:%|per\s*cent|percent)\s+of\b", body, re.I) is None
    if not _reaction_words(_words(name)):
        return False
    spots = [m.start() for m in re.finditer(r"(?<!\w)" + re.escape(name.strip()) + r"(?!\w)", body, re.I)]
    return all(_opens_sentence(body[:at]) for at in spots)


def guard_turn(extraction: Extraction, item: ExtractionInput) -> tuple[Extraction, int]:
    """The reply with pronouns as the speaker or addressee and without interjections (module docstring);
    unchanged for a document. Returns it and the number of facts and entities dropped."""
    if not is_turn(item):
        return extraction, 0
    body, speaker, you = _body(item), item.speaker.strip(), addressee(item)
    person = {**dict.fromkeys(FIRST_PERSON, speaker), **dict.fromkeys(SECOND_PERSON, you), **dict.fromkeys(GROUP)}

    def end(name: str) -> tuple[str | None, bool]:
        """(the name to write, or None to drop; whether it was a pronoun)."""
        words = _words(name)
        if len(words) == 1 and words[0] in person and words[0] == "".join(c for c in name.casefold() if c.isalnum()):
            return person[words[0]], True
        return (None if _interjection(name, body) else name), False

    facts, dropped = [], 0
    for f in extraction.facts:
        (head, head_mapped), (tail, tail_mapped) = end(f.head), end(f.tail)
        if head is None or tail is None or head.casefold() == tail.casefold():
            dropped += 1
            continue
        facts.append(f if (head, tail) == (f.head, f.tail) else ExtractedFact(
            head=head, relation=f.relation, tail=tail, time=f.time,
            head_type=PERSON if head_mapped else f.head_type, tail_type=PERSON if tail_mapped else f.tail_type))
    entities: list[ExtractedEntity] = []
    named = {e.name.casefold() for e in extraction.entities}
    for e in extraction.entities:
        name, mapped = end(e.name)
        if name is None:
            dropped += 1
        elif not mapped:
            entities.append(e)
        elif name.casefold() not in named:  # "I" and "me" are one speaker, whom the reply may name too
            named.add(name.casefold())
            entities.append(ExtractedEntity(name=name, type=PERSON))
    return Extraction(entities=entities, facts=facts), dropped
