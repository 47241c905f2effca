"""Verb and noun phrases of the dependency extractor, mapped onto the default ontology's relations.

Phrases are written in canonical ACTIVE form: ``(agent, lemma [particle] [preposition], object)``.
A passive with a by-agent is turned round first ("Jaws was directed by Spielberg" reads as
``(Spielberg, direct, Jaws)``); a passive with another preposition keeps its participle
(``(X, born in, Y)``). ``reverse`` flips the pair for relations whose ontology name reads the other
way (``direct`` -> ``directed_by``: the work is the head). A phrase not listed here is kept as its
normalised text (``stay_in``), which the memory's schema promotion counts like any relation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AWARD_WORDS", "DATE_RELATIONS", "INSTITUTIONS", "MUSICIANS", "NOUN_BY", "NOUN_OF", "PHRASES", "SKIP_LEMMAS",
           "WORK_GENRES", "Mapped"]


@dataclass(frozen=True)
class Mapped:
    relation: str
    reverse: bool = False  # the fact reads (object, relation, agent)
    tail_award: bool = False  # only when the object looks like an award ("won the Nobel Prize")
    head_types: tuple[str, ...] = ()  # only when the head's known type is one of these
    tail_types: tuple[str, ...] = ()  # only when the tail's known type is one of these
    known_head: bool = False  # only when the head's type is KNOWN to be one of head_types


def _table(rows: dict[str, Mapped]) -> dict[str, Mapped]:
    return {phrase: mapped for phrases, mapped in rows.items() for phrase in phrases.split("|")}


_ORG = ("Organization", "Group")
_PLACE = ("Place",)
_EVENT = ("Event",)

PHRASES: dict[str, Mapped] = _table({
    # agent VERB object
    "direct|co-direct|codirect": Mapped("directed_by", reverse=True),
    "write|co-write|compose|author|pen|paint|design|create|develop|illustrate|sculpt|invent|co-create":
        Mapped("created_by", reverse=True),
    "found|co-found|cofound|establish|form|set up": Mapped("founded_by", reverse=True),
    "publish|produce|co-produce|release|distribute|manufacture|issue": Mapped("published_by", reverse=True),
    "perform|sing|record": Mapped("performed_by", reverse=True),
    "own|acquire|operate|buy|purchase|control": Mapped("owned_by", reverse=True),
    "employ|hire": Mapped("employed_by", reverse=True),
    "marry|wed|married to": Mapped("spouse_of"),
    "join|play for|sign for|belong to": Mapped("member_of", tail_types=_ORG),
    "lead|head|rule|govern|chair|command|captain": Mapped("leader_of"),
    "attend|study at|graduate from|educated at|trained at|educate at": Mapped("educated_at"),
    "work for|work at|employed by": Mapped("employed_by", tail_types=_ORG),
    "win|receive|earn|awarded|win award": Mapped("received_award", tail_award=True),
    "star in|appear in|act in|starred in": Mapped("acted_in"),
    "star": Mapped("cast_member"),  # "the film stars X"
    "include|contain|comprise|consist of": Mapped("has_part"),
    # subject VERB preposition object
    "born in|born at|born near": Mapped("born_in"),
    "die in|die at|die near": Mapped("died_in", tail_types=_PLACE),
    "located in|located at|located on|located within|situated in|situated on|situated at|lie in|lie on|"
    "lie within|sit on|sit in": Mapped("located_in"),
    "based in|based at|headquartered in|headquartered at|headquarter in": Mapped(
        "headquartered_in", head_types=("Organization",)),
    "named after|named for": Mapped("named_after"),
    "known as|called|referred to as|referred as|refer as|refer to as|nicknamed|dubbed|also known as|renamed|rename":
        Mapped("also_known_as"),
    "host": Mapped("occurred_in", reverse=True),  # "Canada hosted the 2007 World Cup"
    "take place in|take place at|held in|held at|happen in|occur in": Mapped("occurred_in"),
    "participate in|compete in|fight in|take part in|competed in": Mapped("participant_in", tail_types=_EVENT),
    "part of": Mapped("part_of"),
    # chat turns ("I moved to Porto", speakers.py): where someone lives, where they have been
    "move to|relocate to|live in|reside in|settle in|move back to": Mapped(
        "lives_in", head_types=("Person",), tail_types=_PLACE, known_head=True),  # a church "moved to" a street
    "visit|go to|travel to|fly to|tour|go back to": Mapped("visited", tail_types=_PLACE),
})

# A date as the object of these phrases gives the date relation of the verb's patient.
DATE_RELATIONS: dict[str, str] = {
    **dict.fromkeys("born in|born on|born".split("|"), "birth_date"),
    **dict.fromkeys("die in|die on|die".split("|"), "date_of_death"),
    # a product's development or design dates it too: "a seaplane developed in 1929", "designed in the 1920s"
    **dict.fromkeys("found|establish|form|incorporate|open|build|construct|set up|co-found|create|launch|develop|"
                    "design".split("|"), "inception"),
    **dict.fromkeys("release|publish|premiere|air|broadcast|issue".split("|"), "publication_date"),
    **dict.fromkeys("take place|take place on|take place in|hold|occur|happen".split("|"), "occurred_on"),
}

# "X is a song by Y": the head noun says which "by" it is.
NOUN_BY: dict[str, str] = {
    **dict.fromkeys("song single album ep track record soundtrack".split(), "performed_by"),
    **dict.fromkeys("novel book poem play painting opera story essay symphony sculpture musical comic manga "
                    "series novella collection memoir biography".split(), "created_by"),
    **dict.fromkeys("film movie documentary".split(), "directed_by"),
}

# "X is the founder of Y" reads the other way round from founded_by.
NOUN_OF: dict[str, tuple[str, bool]] = {
    **dict.fromkeys("founder co-founder cofounder".split(), ("founded_by", True)),
    **dict.fromkeys("author writer creator composer designer developer painter".split(), ("created_by", True)),
    **dict.fromkeys("publisher".split(), ("published_by", True)),
    **dict.fromkeys("owner".split(), ("owned_by", True)),
    **dict.fromkeys("part section subdivision component".split(), ("part_of", False)),
    **dict.fromkeys("tributary".split(), ("tributary_of", False)),
    **dict.fromkeys("seat".split(), ("capital_of", False)),  # "the county seat of Y"
}

# a band's players: "the lead guitarist for the band Y", "the drummer of Y" -> member_of (not of a person:
# "a pianist for Ella Fitzgerald" accompanied her)
MUSICIANS = frozenset("guitarist vocalist singer drummer bassist keyboardist frontman frontwoman pianist saxophonist "
                      "trumpeter rapper violinist cellist percussionist".split())

# buildings and institutions: "a school in Y" locates it in Y when Y is a place
INSTITUTIONS = frozenset("school college university academy seminary hospital library hotel restaurant prison "
                         "monastery abbey temple mosque synagogue theatre theater cinema cemetery zoo mall farm "
                         "mine dam lighthouse palace fort fortress manor mansion house arena venue hall studio "
                         "factory observatory shrine chapel basilica club".split())

# genre nouns of works the ontology's type synonyms may not list ("a 2006 romantic tragic-comedy")
WORK_GENRES = frozenset("film movie biopic documentary comedy drama thriller western musical series miniseries "
                        "sitcom serial opera novel novella book album single song ep dvd video game play".split())

# Verbs that say nothing on their own (an open relation "be"/"have" would only add noise).
SKIP_LEMMAS = frozenset("be have do get make go come say tell use see give take become seem".split())
# speech verbs: their object is what was said ('"Idiot!" snapped Heywood' read Idiot as a name; novels)
SKIP_LEMMAS |= frozenset("snap reply answer cry exclaim ask shout whisper mutter murmur stammer retort".split())

AWARD_WORDS = re.compile(
    r"\b(?:award|awards|prize|medal|trophy|cross|oscar|emmy|grammy|tony|golden globe|bafta|honou?r|"
    r"fellowship|scholarship)\b", re.IGNORECASE)
