"""Name-level repairs of the offline extractor's mentions, each for an error measured on the hand-labelled
fixture (tests/fixtures/offline_precision.json):

- the passage's title (without its disambiguation: "(novel)", ", Northwest Territories" when the text
  does not say it), where the text says it verbatim, is ONE name: the NER cut "Kauf dir einen bunten
  Luftballon" to "Luftballon", "Heinkel HD 23" to "Heinkel HD", split "Franklin Street Presbyterian Church
  and Parsonage" at "and" and "Left Grouping of ..." lost its first word (``title_mentions``);
- an abbreviation in brackets right after a name is another name of it ("New South Wales Institute of
  Sport (NSWIS)"): the NER glued "(NSWIS" to the name (``abbreviations``);
- post-nominal letters are not part of a name ("James Alexander Richey CIE", ``trim_name``);
- a title in quotes is one name where the NER found none or part of it ('"Too Good to Last" is a song',
  'the drama series "Party of Five"' was "Party"): words of four letters or more capitalised, no end
  punctuation inside (a novel's quoted speech is not a title; ``quoted_titles``). Its year in brackets is
  not read as a release date: that cost HotpotQA's Recall@2 (docs/guides/ingest.md).
"""

from __future__ import annotations

import re

from memgraph_neo4j.extractors.offline.ner import TITLES, Mention

__all__ = [
    "POSTNOMINALS", "abbreviations", "quoted_titles", "repair_spans", "repaired_names",
    "title_mentions", "trim_name",
]

_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")  # "Whit (novel)", "Cutler School (New York City)"
_LEADS = frozenset("The A An In On At By For From With As And Or But When While After Before".split())
# a title or rank before a name is a role, not part of it ("President James Buchanan", "Sir R. Ford")
_ROLES = TITLES | frozenset("mr mrs ms miss dr prof sir dame rev general major colonel captain lieutenant admiral "
                            "sergeant lord lady pope senator judge saint st gen col capt lt gov sen".split())
_LEADING_THE = re.compile(r"(?:The|the)\s+(?=\S)")
# honours and degrees written after a name (British orders, fellowships, the commonest degrees)
POSTNOMINALS = (
    r"(?:,?\s+(?:CIE|KCIE|GCIE|CSI|KCSI|OBE|MBE|CBE|KBE|DBE|GBE|KCB|GCB|CB|KCMG|GCMG|CMG|KCVO|GCVO|CVO|LVO|MVO|DSO|MC|"
    r"VC|GC|FRS|FRSE|FBA|FRCP|FRCS|QC|KC|PC|MP|MEP|MSP|MW|RA|KG|KT|DL|JP|PhD|MD))+")
_POSTNOMINAL = re.compile(POSTNOMINALS + "$")
_TRAILING = re.compile(r"\s+(?:at|from|of|in|on|the|and|or|for|to|by|with)$")
# "Royal Borough of Kensington & Chelsea": these heads take their "of" complement into the name
_OF_HEADS = frozenset("Borough County District Province Republic Kingdom Duchy Principality Municipality Region "
                      "University Institute College Academy Museum Ministry Department Council Society Bank".split())
_OF_THE = re.compile(r" of (?:the )?")
_ABBREVIATION = re.compile(r"\s*\(\s*([A-Z][A-Z&.]{1,9})\s*\)")
_QUOTED_TITLE = re.compile(r"(?:``\s*|\"|\u201c)(?P<t>[A-Z0-9][^\"\u201c\u201d`\n]{0,80}?)\s*(?:''|\"|\u201d)")
_NICK_BEFORE = re.compile(r"\b[A-Z][\w.'-]*\s+$")
_NICK_AFTER = re.compile(r"\s+[A-Z]")
# "Hyperkalemic periodic paralysis (HYPP, HyperKPP)": two or more short forms, each with two capitals at least
_ABBREVIATION_LIST = re.compile(r"\s*\(\s*([A-Z][\w&.]{1,9}(?:\s*,\s*[A-Z][\w&.]{1,9})+)\s*\)")


def trim_name(m: Mention) -> Mention:
    """The name without post-nominal letters, a bracket it never closes ("X (NSWIS" -> "X") or a preposition
    at its end ("University of Illinois from", "International Relations at")."""
    name = m.text
    if m.kind != "name":
        return m
    if "(" in name and ")" not in name and (cut := name.index("(")) > 0:
        name = name[:cut].rstrip()
    while (t := _TRAILING.search(name)) and t.start() > 0:
        name = name[: t.start()]
    if (p := _POSTNOMINAL.search(name)) and p.start() > 0:
        name = name[: p.start()]
    return m if name == m.text else Mention(m.start, m.start + len(name), name, m.kind, m.label, m.ref)


def title_mentions(text: str, title: str | None, found: list[Mention]) -> list[Mention]:
    """`found` with every verbatim occurrence of the passage's title (its disambiguation in brackets and a
    leading "The" left out) made one name mention, replacing the NER mentions it overlaps. The NER's label is
    kept when the mentions it replaces agree on one. A title starting in lower case is not a name."""
    name = _DISAMBIGUATION.sub("", title or "").strip()
    name = name[m.end():] if (m := _LEADING_THE.match(name)) else name
    if ", " in name and name not in text:  # "Enterprise, Northwest Territories": a place's title names its region
        name = name.split(", ", 1)[0]
    if len(name) < 3 or not (name[0].isupper() or name[0].isdigit()):
        return _reordered(text, found)
    out = list(found)
    for occ in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-]|\s*\d)", text):
        s, e = occ.span()
        if (w := re.search(r"([A-Z][\w'-]*)\s+$", text[max(s - 40, 0) : s])) and w[1] not in _LEADS:
            continue  # "Cool Ranch Doritos": a capitalised word before it makes a longer name
        over = [m for m in out if m.start < e and s < m.end]
        # a date the NER started inside the title ("Until Tomorrow (1975)" -> "Tomorrow (1975") keeps its digits
        crossing = [m for m in over if m.kind == "date" and s < m.start < e < m.end]
        over = [m for m in over if m not in crossing]
        if any(m.start < s or m.end > e for m in over) or [(m.start, m.end) for m in over] == [(s, e)] and \
                not crossing:
            continue  # a longer name holds it (or a date crosses it), or the NER read it whole already
        for m in crossing:
            out.remove(m)
            if d := re.search(r"\d(?:.*\d)?", text[e : m.end]):
                out.append(Mention(e + d.start(), e + d.end(), d[0], "date", m.label))
        # the NER's label only when it read most of the title: "Emma" (a person) is not "Emma's Bliss"
        label = over[0].label if len(over) == 1 and 2 * (over[0].end - over[0].start) >= e - s else None
        out = [m for m in out if m not in over]
        out.append(Mention(s, e, name, "name", label))
    return _reordered(text, sorted(out, key=lambda m: m.start))


def repair_spans(text: str, found: list[Mention]) -> list[Mention]:
    """Names the NER cut short, joined back: capitalised words right before a name that no other mention
    holds and that the text never writes in lower case ("Varsity Blind Tasting Match", "Title IV of ..."),
    and "<Borough|University|...> of <name>" as one name."""
    out = sorted(found, key=lambda m: m.start)
    for i, m in enumerate(out):
        if m.kind != "name" or m.ref is not None:
            continue
        start = m.start
        while (w := re.search(r"(?<![\w'\u2019.,-])([A-Z][\w-]*) $", text[max(start - 30, 0) : start])) \
                and w[1] not in _LEADS and w[1].lower().rstrip(".") not in _ROLES \
                and not re.search(rf"(?<![\w-]){w[1].lower()}(?![\w-])", text) \
                and not (i and out[i - 1].end > start - len(w[0])):
            start -= len(w[0])
        end, nxt = m.end, out[i + 1] if i + 1 < len(out) else None
        if nxt is not None and nxt.kind == "name" and text[m.end : nxt.start] == " of " \
                and m.text.rsplit(maxsplit=1)[-1] in _OF_HEADS:
            end = nxt.end
        if (start, end) != (m.start, m.end):
            out[i] = Mention(start, end, text[start:end], "name", m.label)
    # a name joined to the next one replaces it
    return [m for i, m in enumerate(out) if not (i and out[i - 1].end >= m.end and out[i - 1].start <= m.start)]


def _reordered(text: str, ments: list[Mention]) -> list[Mention]:
    """'Seiya Fujita (藤田 征也, Fujita Seiya, born 2 June 1987)': the name in its own language's order, in the
    brackets right after it, is that person (the bracket's facts are the name's, not a second person's); after
    the title is made a name, which the NER often missed ("Seiya Fujita")."""
    names = [m for m in ments if m.kind == "name" and m.ref is None]
    for j, b in enumerate(names):
        for a in names[max(j - 3, 0) : j]:
            if b.text != a.text and sorted(b.text.split()) == sorted(a.text.split()) and len(a.text.split()) > 1 \
                    and re.fullmatch(r"\s*\([^()]*", text[a.end : b.start]):
                b.ref = a
    return ments


def abbreviations(text: str, names: list[Mention], taken: list[Mention]) -> list[tuple[Mention, Mention]]:
    """(name, abbreviation) for 'Name (ABBR)' where ABBR shares at least two letters with the name's initials
    and starts with one of them (a translated name keeps its letters in another order: "Nationalist Party of
    the Valencian Country (PNPV)"); the abbreviation's mention is one of `taken` when the NER found it, else
    a new one."""
    out, joined = [], []
    for i, a in enumerate(names):
        m = _ABBREVIATION.match(text, a.end)
        if a.kind == "name" and a.ref is None and m is None:
            out += _abbreviation_list(text, a, taken)
        if m is None or a.kind != "name" or a.ref is not None:
            continue
        abbr = m[1].replace(".", "")
        if not _fits(abbr, a.text):  # "Valencian Country (PCPV)": the NER cut "Communist Party of the" off; the
            prev = names[i - 1] if i else None  # letters tell, and the two are one name
            if prev is None or prev.kind != "name" or not _OF_THE.fullmatch(text[prev.end : a.start]) \
                    or not _fits(abbr, text[prev.start : a.end]):
                continue
            whole = Mention(prev.start, a.end, text[prev.start : a.end], "name", prev.label)
            joined.append((prev, a, whole))
            a = whole
        s, e = m.span(1)
        b = next((x for x in taken if (x.start, x.end) == (s, e)), None) or Mention(s, e, m[1], "name", a.label)
        out.append((a, b))
    for prev, a, whole in joined:  # the joined name replaces its two parts in the sentence's mentions
        taken[:] = sorted([x for x in taken if x is not prev and x is not a] + [whole], key=lambda x: x.start)
    return out


def _fits(abbr: str, name: str) -> bool:
    """ABBR starts with one of the name's initials and shares two letters with them at least."""
    initials = {w[0].upper() for w in re.findall(r"[\w'-]+", name) if w[0].isupper()}
    return abbr[0] in initials and len(set(abbr) & initials) >= min(2, len(set(abbr)))


def _abbreviation_list(text: str, a: Mention, taken: list[Mention]) -> list[tuple[Mention, Mention]]:
    """'Name (ABBR1, ABBR2)': each short form with two capitals at least, starting with the name's first letter."""
    m = _ABBREVIATION_LIST.match(text, a.end)
    if m is None:
        return []
    out = []
    for item in re.finditer(r"[^,\s][^,]*[^,\s]|[^,\s]", m[1]):
        form = item[0]
        if sum(c.isupper() for c in form) < 2 or form[0] != a.text[0].upper() or " " in form:
            return []  # one item that is no short form: the bracket is something else
        s, e = m.start(1) + item.start(), m.start(1) + item.end()
        b = next((x for x in taken if (x.start, x.end) == (s, e)), None) or Mention(s, e, form, "name", a.label)
        out.append((a, b))
    return out


def _title_case(title: str) -> bool:
    words = title.split()
    return (len(words) <= 12 and title[-1] not in ",.;:!?" and ". " not in title
            and all(w[0].isupper() or w[0].isdigit() or len(w.strip(",'")) < 4 for w in words))


def quoted_titles(text: str, found: list[Mention], work: str | None = None) -> list[Mention]:
    """`found` with each title in quotes a name mention of type `work` (a song, film or book: typed by the
    embedder, "Islands in the Stream" was a Place beside its singer and became located_in), replacing the
    mentions inside it; none where a mention crosses its quotes, nor between two capitalised words (a
    nickname: 'Johannes "Hans" Schelling', aliases.nicknames)."""
    out = list(found)
    for q in _QUOTED_TITLE.finditer(text):
        if _NICK_BEFORE.search(text, 0, q.start()) and _NICK_AFTER.match(text, q.end()):
            continue
        s, e = q.span("t")
        if lead := _LEADING_THE.match(text, s, e):  # "The Company" -> "Company", as the NER's names are
            s = lead.end()
        title = text[s:e]
        if not _title_case(title) or any(m.start < e and s < m.end and not (s <= m.start and m.end <= e)
                                         for m in out):
            continue
        inside = [m for m in out if s <= m.start and m.end <= e]
        out = [m for m in out if m not in inside] + [Mention(s, e, title, "name", work)]
    return out


def repaired_names(text: str, title: str | None, found: list[Mention], work: str | None = None) -> list[Mention]:
    """The NER's names with the repairs above: quoted titles (of type `work`), spans, the passage's title."""
    # an entity swallowed by a widened neighbour ("Dallas" in "Dallas Texans") is not a mention of its own
    found = [m for m in found if not any(o is not m and o.start <= m.start and m.end <= o.end for o in found)]
    return title_mentions(text, title, repair_spans(text, quoted_titles(text, found, work)))
