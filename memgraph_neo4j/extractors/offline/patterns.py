"""Relation patterns of the offline extractor, matched on the text between two mentions of one sentence.

A rule's ``gap`` regex must match that whole text, with mentions in between written as
``<date>``/``<qty>``/``<ent>``; it yields the ontology's default relation names (``born_in``,
``capital_of``, ``directed_by`` ...). Also here: class phrases ("X, a Y") and "A, B" name pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from memgraph_neo4j.extractors.offline.names import POSTNOMINALS
from memgraph_neo4j.extractors.offline.ner import TITLES, Kind, Mention
from memgraph_neo4j.extractors.offline.verbs import MUSICIANS
from memgraph_neo4j.extractors.typing import DATE_PATTERN, rule_type
from memgraph_neo4j.memory.normalize import normalize_relation
from memgraph_neo4j.memory.ontology import Ontology

__all__ = [
    "NP_IN", "NP_OF", "NP_OF_SKIP", "PLACE_NOUNS", "RANGE_END", "RULES", "TIME_AFTER", "Rule", "class_phrase",
    "comma_pairs", "is_subject", "np_relation",
]

_AUX = (
    r"(?:(?:is|was|are|were|has\s+been|had\s+been|have\s+been|being|been|be|will\s+be|had|has|have)\s+)?"
    r"(?:(?:also|later|originally|first|then|subsequently|eventually|currently|formerly|officially|primarily|"
    r"mainly|once|now|still|jointly|initially|reportedly)\s+)?"
)
# "( ; born": a bracket whose pronunciation the source dropped
_PRE = r"\s*(?:,\s*|\(\s*(?:;\s*)?)?(?:(?:who|which|that)\s+)?" + _AUX
# "X is a 2005 American comedy film directed by Y": a class phrase may precede a participle.
# No preposition inside: in "a remake of the film Z directed by Y", Y directed Z, not X.
_PRE_NP = _PRE + (r"(?:(?:a|an|the)\s+(?:(?!(?:of|about|by|from|in|on|with|for|to|and|or|at)\s)"
                  r"(?:[\w'-]+|<date>|<ent>)\s+){0,6}?)?")
_THE = r"(?:the\s+)?"
_DIR = (
    r"(?:(?:the\s+)?(?:north|south|east|west|centre|center|heart|outskirts)\s+of\s+(?:the\s+)?)?"
    r"(?:(?:north|south|east|west|central|northern|southern|eastern|western|north-?eastern|north-?western|"
    r"south-?eastern|south-?western|northeast|northwest|southeast|southwest|upper|lower|rural|downtown)\s+)?"
)
# "three miles", "20 km" (or a quantity mention) and a compass direction before "of": where X lies from Y
_FROM_PLACE = (r"(?:(?:about|approximately|roughly|some|around|just|located|situated)\s+)?(?:(?:<qty>|[\w.-]+\s+"
               r"(?:miles?|kilometres?|kilometers?|km|mi))\s+)?(?:directly\s+|due\s+)?")
_COMPASS = r"(?:north|south|east|west)(?:-?(?:east|west))?"
_ON_DATE = r"(?:\s+(?:(?:on|in)\s+)?<date>\s*,?)?"  # "born 2 June 1987, in Sapporo" too
# a life span's places: "(2 March 1801, Bristol \u2013 19 May 1870, Bath)"
_AT_PLACE = r"(?:\s*,\s*<ent>)?"
_LIFE_PLACE = re.compile(r"(?:\s*,\s*[A-Z][\w'\u2019. -]{0,40}?)?\s*[-\u2013\u2014]")
_AWARD_WORDS = re.compile(r"\b(?:award|awards|prize|medal|trophy|cross|oscar|emmy|grammy|tony|golden globe|bafta)\b",
                          re.IGNORECASE)
PLACE_NOUNS = frozenset(
    "city town village hamlet suburb commune municipality neighbourhood neighborhood borough district county "
    "region province state parish settlement community locality island port resort quarter area river lake "
    "mountain airport stadium station park bridge castle church cathedral museum building street".split()
)


@dataclass(frozen=True)
class Rule:
    gap: re.Pattern[str]
    relation: str | None  # when the tail is not a date
    date_relation: str | None = None  # when the tail is a date
    reverse: bool = False  # the pattern reads "tail REL head" (X directed Y -> Y directed_by X)
    tail_kind: Kind | None = None
    tail_words: re.Pattern[str] | None = None
    after: re.Pattern[str] | None = None  # must match the text right after the tail


def _r(gap: str, relation: str | None, date_relation: str | None = None, **kw: Any) -> Rule:
    return Rule(re.compile(gap, re.IGNORECASE), relation, date_relation, **kw)


RULES: tuple[Rule, ...] = (
    _r(_PRE_NP + r"born" + _ON_DATE + r"\s+(?:in|at|near)\s+" + _THE + _DIR, "born_in", "birth_date"),
    _r(_PRE_NP + r"born\s+(?:on\s+)?", None, "birth_date"),
    _r(_PRE + r"born\s+", "also_known_as"),  # "Margaret Sanger, born Margaret Louise Higgins"
    # X (4 August 1961 – ...; "James Alexander Richey CIE (8 March 1874 – ...": post-nominals between
    _r(r"(?:" + POSTNOMINALS + r")?\s*\(\s*", None, "birth_date", after=_LIFE_PLACE),
    _r(r"(?:" + POSTNOMINALS + r")?\s*\(\s*(?:born\s+|b\.\s*)?<date>" + _AT_PLACE
       + r"\s*[-\u2013\u2014]\s*(?:died\s+|d\.\s*)?", None, "date_of_death"),
    _r(r"(?:" + POSTNOMINALS + r")?\s*\(\s*(?:born\s+|b\.\s*)?<date>\s*,\s*", "born_in", tail_kind="name",
       after=re.compile(r"\s*[-\u2013\u2014]")),
    _r(r"(?:" + POSTNOMINALS + r")?\s*\(\s*(?:born\s+|b\.\s*)?<date>" + _AT_PLACE + r"\s*[-\u2013\u2014]\s*"
       r"(?:died\s+|d\.\s*)?<date>\s*,\s*", "died_in", tail_kind="name", after=re.compile(r"\s*\)")),
    _r(_PRE + r"died" + _ON_DATE + r"\s*(?:(?:on|in|at)\s+)?" + _THE + _DIR, "died_in", "date_of_death"),
    _r(_PRE + _THE + r"(?:(?:former|current|national|federal|state|provincial|historic|administrative|"
       r"regional|royal|ancient|de\s+facto)\s+)?capital(?:\s+city)?\s+of\s+" + _THE, "capital_of"),
    _r(r"\s*(?:'s|\u2019s)\s+capital(?:\s+city)?\s*(?:,\s*|\s+(?:is|was)\s+)?", "capital_of", reverse=True),
    _r(_PRE_NP + r"(?:located|situated)\s+(?:in|within|on|at)\s+" + _THE + _DIR, "located_in"),
    _r(_PRE + r"(?:lies|lie)\s+(?:in|within)\s+" + _THE + _DIR, "located_in"),
    # "X is three miles east of Y", "X, 5 km north-west of Y": where a place lies from another (25 in MuSiQue's
    # and HotpotQA's 2,884 passages), an open relation per direction
    *(_r(_PRE_NP + _FROM_PLACE + pattern + r"\s+of\s+" + _THE, f"{name}_of")
      for pattern, name in (("north", "north"), ("south", "south"), ("east", "east"), ("west", "west"),
                            ("north-?east", "northeast"), ("north-?west", "northwest"),
                            ("south-?east", "southeast"), ("south-?west", "southwest"))),
    # "X is three miles east of Y, in Z County": the place after the comma holds X too
    _r(_PRE_NP + _FROM_PLACE + _COMPASS + r"\s+of\s+" + _THE + r"<ent>\s*,\s*in\s+" + _THE, "located_in"),
    _r(_PRE_NP + r"(?:headquartered|based)\s+(?:in|at)\s+" + _THE + _DIR, "headquartered_in"),
    _r(_PRE + r"(?:with|has|had)\s+(?:its\s+)?headquarters\s+(?:in|at)\s+" + _THE, "headquartered_in"),
    _r(_PRE + r"(?:a\s+)?part\s+of\s+" + _THE, "part_of"),
    _r(_PRE + r"(?:a\s+)?(?:founding\s+|former\s+|permanent\s+|full\s+)?member\s+of\s+" + _THE, "member_of"),
    _r(_PRE + r"(?:joined|plays\s+for|played\s+for)\s+" + _THE, "member_of"),
    _r(_PRE_NP + r"(?:co-?)?(?:founded|established|formed)" + _ON_DATE + r"\s+by\s+" + _THE, "founded_by"),
    _r(_PRE_NP + r"(?:founded|established|formed|incorporated|opened|built|constructed)\s+(?:in|on)\s+",
       None, "inception"),
    _r(r"\s*,?\s*(?:who\s+)?(?:also\s+)?(?:co-?)?founded\s+" + _THE, "founded_by", reverse=True),
    _r(_PRE_NP + r"(?:(?:written|produced|co-written)\s+and\s+)?directed\s+by\s+", "directed_by"),
    _r(r"\s*,?\s*(?:who\s+)?(?:also\s+)?directed\s+" + _THE
       + r"(?:<date>\s+)?(?:(?:film|movie|documentary|series|play)\s+)?", "directed_by", reverse=True),
    _r(_PRE_NP + r"(?:written|composed|authored|created|painted|designed|developed|illustrated|sculpted)"
       r"(?:\s+and\s+\w+)?\s+by\s+" + _THE, "created_by"),
    _r(r"\s*,?\s*(?:who\s+)?(?:also\s+)?(?:wrote|composed|painted|authored|designed)\s+" + _THE + r"(?:<date>\s+)?"
       r"(?:(?:novel|book|song|film|poem|play|opera|album|painting|series|symphony|story|screenplay)\s+)?",
       "created_by", reverse=True),
    _r(_PRE_NP + r"(?:published|produced|released|distributed|manufactured|issued)(?:\s+\w+)?\s+by\s+" + _THE,
       "published_by"),
    _r(_PRE_NP + r"(?:first\s+)?(?:published|released|premiered|aired|broadcast|launched|issued)\s+(?:in|on)\s+",
       None, "publication_date"),
    _r(_PRE_NP + r"(?:performed|sung|recorded)\s+by\s+" + _THE, "performed_by"),
    _r(_PRE + r"(?:married|wed)(?:\s+to)?\s+", "spouse_of"),
    _r(_PRE + r"(?:(?:known|called|referred\s+to)\s+as|nicknamed|dubbed)\s+" + _THE, "also_known_as"),
    _r(_PRE + r"(?:also|better|commonly|popularly|previously)\s+(?:known|called)\s+as\s+" + _THE, "also_known_as"),
    _r(_PRE_NP + r"named\s+(?:after|for|in\s+hono(?:u)?r\s+of)\s+" + _THE, "named_after"),
    _r(_PRE + r"(?:took\s+place|held|happened|occurred|fought)" + _ON_DATE + r"\s+(?:in|at|on|near)\s+" + _THE + _DIR,
       "occurred_in", "occurred_on"),
    _r(_PRE + r"(?:(?:studied|educated|trained)\s+at|attended|graduated\s+from)\s+" + _THE, "educated_at"),
    _r(_PRE + r"(?:(?:works|worked|working)\s+(?:for|at)|employed\s+by)\s+" + _THE, "employed_by"),
    _r(_PRE + r"(?:starred|appeared|acted)\s+in\s+" + _THE + r"(?:<date>\s+)?"
       r"(?:(?:film|movie|series|play|musical|sitcom|television\s+series|tv\s+series)\s+)?", "acted_in"),
    _r(r"\s*,?\s*(?:starring|stars)\s+", "cast_member"),
    _r(_PRE + r"(?:won|received|awarded|earned|was\s+awarded)\s+(?:(?:the|a|an|two|three|several)\s+)?",
       "received_award", tail_words=_AWARD_WORDS),
    _r(_PRE_NP + r"(?:owned|operated|controlled|acquired)\s+by\s+" + _THE, "owned_by"),
    _r(_PRE + r"(?:participated|competed|fought|took\s+part)\s+in\s+" + _THE, "participant_in"),
    _r(_PRE + r"(?:led|leads|headed|heads|ruled|rules|governed|chaired)\s+" + _THE, "leader_of"),
    _r(_PRE + r"(?:(?:has|had|with)\s+(?:a|an)\s+(?:(?:estimated|total|recorded|combined|census)\s+)?population\s+of|"
       r"(?:'s|\u2019s)\s+population\s+(?:is|was|of))\s+(?:about\s+|around\s+|approximately\s+|over\s+|nearly\s+|some\s+)?",
       "population", tail_kind="quantity"),
)
# "X is the 44th president of Y", "X, a suburb of Y", "X is a city in Y"
# A lead (comma, bracket or copula) is required: "X met the president of Y" must not match.
NP_OF = re.compile(
    r"\s*(?:,\s*|\(\s*|\s(?:(?:who|which)\s+)?(?:is|was|are|were|became|becomes|has\s+been|had\s+been|served\s+as|"
    r"serves\s+as|remains|remained)\s+(?:(?:also|later|formerly|currently|then|briefly)\s+)?)"
    r"(?P<art>(?:a|an|the|one\s+of\s+the)\s+)?(?P<np>(?:(?!(?:a|an|the)\s)[\w'-]+\s+){0,3}?[\w'-]+)\s+of\s+" + _THE,
    re.IGNORECASE,
)
NP_IN = re.compile(_PRE + r"(?:a|an|the)\s+(?:[\w'<>-]+\s+){0,4}?(?P<noun>[\w-]+)\s+(?:(?:located|situated)\s+)?"
                   r"(?:in|on|within)\s+" + _THE + _DIR, re.IGNORECASE)
NP_OF_SKIP = frozenset(
    "one some all most many part name kind type sort lot number series group pair couple variety range list set "
    "form end beginning rest majority half top side center centre heart edge result use first last".split()
)
# "X, a Y" / "X is an American politician": the class phrase after an indefinite article.
_CLASS = re.compile(r"(?:\s*,\s*|\s+(?:is|was)\s+(?:also\s+)?)(?:a|an)\s+((?:[\w'-]+\s+){0,6}[\w'-]+)")
_CLASS_STOP = frozenset(
    "of in on at by for from with who which whose where when that and or but to as than born based located founded "
    "directed written released published known starring featuring produced created formed made set licensed used "
    "owned operated designed built named called situated listed held serving flowing consisting including "
    "established developed managed playing".split()
)
_LIST_END = re.compile(r",?\s+(?:and|or)\b")
_LIST_GAP = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_AND_GAP = re.compile(r"\s*,?\s*(?:and|or)\s+")
TIME_AFTER = re.compile(r"\s*,?\s*(in|on|from|since|until|till|between)\s+")
# the end of a range after its first date, when the NER did not read the two as one mention (spaCy:
# "1975" a DATE, "1979" a DATE or nothing at all, by the sentence's context)
RANGE_END = re.compile(rf"\s*(?:to|until|till|through|and|[-\u2013\u2014])\s*{DATE_PATTERN}(?![\w])", re.IGNORECASE)


def np_relation(gap: str, ontology: Ontology) -> list[str]:
    """'X is the 44th president of Y' -> president_of; 'X is a city in Y' -> located_in."""
    if m := NP_IN.fullmatch(gap):
        return ["located_in"] if m["noun"].lower() in PLACE_NOUNS else []
    m = NP_OF.fullmatch(gap)
    if m is None or "<" in m["np"]:
        return []
    words = m["np"].split()
    # lower-case words only (a capitalised one would be part of a name), titles excepted
    if any(w != w.lower() and w.lower() not in TITLES for w in words) or words[-1].lower() in NP_OF_SKIP:
        return []
    lowered = [w.lower() for w in words]
    if "capital" in lowered:
        return ["capital_of"]
    if lowered[-1] in MUSICIANS:  # "X is the drummer of Y" (the caller drops a person for Y)
        return ["member_of"]
    relations = {r.name for r in ontology.relations}
    for k in range(len(lowered)):
        rel = normalize_relation(" ".join(lowered[k:]) + " of", ontology)
        if rel in relations:
            return [rel]
    if lowered[-1] in PLACE_NOUNS:
        return ["located_in"]
    # unknown role noun: keep it as an open relation ("author_of"), only with an article
    return [normalize_relation(lowered[-1] + " of")] if m["art"] else []


def class_phrase(text: str, a: Mention) -> Mention | None:
    """The class phrase right after a ("X, a Y", "X is an American politician"), as a mention."""
    m = _CLASS.match(text, a.end)
    if m is None:
        return None
    words, start = [], m.start(1)
    for w in re.finditer(r"[\w'-]+", m[1]):
        if w[0].lower() in _CLASS_STOP:
            break
        words.append(w)
    while words and words[-1][0].endswith("ly"):
        words.pop()  # "a privately (owned airline)": an adverb is not a class
    # drop leading years/ordinals ("a 2005 American film" -> "American film")
    while words and (words[0][0][0].isdigit() or rule_type(words[0][0]) == "Date"):
        words.pop(0)
    if not words or not words[-1][0].isalpha() or words[-1][0] != words[-1][0].lower():
        return None  # the head noun must be a lower-case common noun
    if re.match(r"\s+of\b", m[1][words[-1].end() :]):
        return None  # "a member of Y": handled as a relation
    words = words[-4:]
    while len(words) > 1 and not words[0][0][0].isalnum():
        words.pop(0)  # "a peer - reviewed journal": no class starts with a dash
    s, e = start + words[0].start(), start + words[-1].end()
    return Mention(s, e, text[s:e], "class")


def comma_pairs(text: str, names: list[Mention]) -> list[tuple[Mention, Mention, bool, bool]]:
    """Adjacent 'A, B' name pairs, flagged (before, after) when they sit inside a list.

    Names joined by bare commas form a run; the run is a list when "and"/"or" follows its last member
    ("France, Germany and Italy", "Berea, Amherst, and Massillon") or ends the name before it, else a chain
    of containment
    ("in Merrimack County, New Hampshire, United States": each place in the next).
    """
    runs, i = [], 0
    while i < len(names):
        j = i
        while j + 1 < len(names) and text[names[j].end : names[j + 1].start] == ", ":
            j += 1
        runs.append((i, j))
        i = j + 1
    out = []
    for n, (i, j) in enumerate(runs):
        # "Amsterdam, Germany, London, and at the ...", "Maryland and Washington, D.C."
        listed = bool(_LIST_END.match(text, names[j].end)) or (
            i > 0 and bool(_LIST_GAP.fullmatch(text[names[i - 1].end : names[i].start])))
        if listed and j == i + 1 and _paired(text, names, runs, n):
            listed = False  # "Hershey, Pennsylvania, and Akron, Ohio": two places, each with its state
        out += [(names[k], names[k + 1], listed, listed) for k in range(i, j)]
    return out


def _paired(text: str, names: list[Mention], runs: list[tuple[int, int]], n: int) -> bool:
    """Runs n and its neighbour across "and"/"or" are both 'A, B' pairs, with no third name listed before
    or after them: a list of two places named with their regions, not a list of four."""
    def pair(k: int) -> bool:
        return 0 <= k < len(runs) and runs[k][1] == runs[k][0] + 1

    def joined(k: int) -> bool:  # runs k and k + 1 are joined by "(,) and/or"
        return bool(_AND_GAP.fullmatch(text[names[runs[k][1]].end : names[runs[k + 1][0]].start]))

    def alone(k: int) -> bool:  # nothing listed before run k and after run k + 1
        before = k > 0 and bool(_LIST_GAP.fullmatch(text[names[runs[k - 1][1]].end : names[runs[k][0]].start]))
        after = k + 2 < len(runs) and bool(
            _LIST_GAP.fullmatch(text[names[runs[k + 1][1]].end : names[runs[k + 2][0]].start]))
        return not (before or after)

    return any(pair(k) and pair(k + 1) and joined(k) and alone(k) for k in (n - 1, n) if 0 <= k < len(runs) - 1)


def is_subject(text: str, sent_start: int, a: Mention, ments: list[Mention]) -> bool:
    """Patterns read 'a' as the subject of what follows, so it must not sit inside a phrase.

    In "an album by The Vandals, released in 1998" or "the band X released in 1998" it was
    the album that was released: a mention is a subject only at the sentence start (after
    an optional "The"), after a comma/bracket/colon, or right after a leading date ("In 1975 X").
    """
    prefix = re.sub(r"(?:^|\s)(?:the|The)\s*$", "", text[sent_start : a.start]).rstrip(" \"'\u201c\u2018")
    prev = next((m for m in reversed(ments) if m.end <= a.start), None)
    lead = text[sent_start : prev.start] if prev is not None else ""
    if prev is not None and prev.kind == "date" and re.fullmatch(r"\W*(?:in|on|by|from)?\W*", lead, re.IGNORECASE):
        return bool(re.fullmatch(r"\s*,?\s*", text[prev.end : a.start]))  # "In 1975(,) X founded ..."
    if prev is not None and re.fullmatch(r",\s*", text[prev.end : a.start]):
        return False  # "Manchester, England, designed by ...": England continues a place name
    return not prefix or prefix[-1] in ",(;:"


def time_after(text: str, ments: list[Mention], tail: Mention) -> str | None:
    """The qualifier of a date mention right after `tail` ("married Y in 1992"), as the text says it
    (memory/timespan.py reads it): "until" is an end, not a start, and a range keeps both ends when the
    NER read them as two dates ("from 1975" "to 1979")."""
    nxt = next((m for m in ments if m.start >= tail.end), None)
    if nxt is None or nxt.kind != "date" or (lead := TIME_AFTER.fullmatch(text[tail.end : nxt.start])) is None:
        return None
    word = lead.group(1).lower()
    if word in ("from", "between") and (end := RANGE_END.match(text, nxt.end)) is not None:
        return (f"{word} " if word == "between" else "") + text[nxt.start : end.end()]
    return f"until {nxt.text}" if word in ("until", "till") else nxt.text
