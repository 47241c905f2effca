"""Other names an encyclopaedic passage gives an entity right where it names it (each for misses measured on
tests/fixtures/offline_precision.json):

- a nickname in quotes inside a person's name ('Robert Allen "Bob" Marsh'): the person is named by the
  nickname and the surname, as a title would name him ("Bob Marsh"), with the full name an alias
  (``nicknames``); the NER split such names at the quotes or kept the quotes in;
- a name in another language in brackets ('X (German: Y)', 'X (in Catalan: "Y")') is an alias of X
  (``bracket_aliases``); the parse read the bracket's name as the subject of the sentence;
- a name the bracket says X is also called: 'X (released in the US as "Y")', 'X, 2005 (sometimes also
  called Y)', 'X (aka "Y")' (``bracket_aliases`` too): the bracket's words hang on X, not on the sentence.
"""

from __future__ import annotations

import re

from memgraph_neo4j.extractors.offline.ner import Mention

__all__ = ["bracket_aliases", "nicknames"]

_WORD = r"[A-Z][\w.'\u2019-]*"
_NICKNAME = re.compile(
    rf"(?<![\w\"\u201c])(?P<first>{_WORD}(?:\s+{_WORD}){{0,2}})\s+[\"\u201c](?P<nick>{_WORD})[\"\u201d]\s+"
    rf"(?P<last>{_WORD}(?:\s+{_WORD})?)(?![\w\"\u201d])")
_LIFE = re.compile(r"\s*\(\s*(?:born\s|b\.|\d|[A-Z][a-z]+\.?\s+\d)")  # "X (born ...", "X (4 May 1901 ..."
# languages by their usual endings, and the common ones that have none
_LANGUAGE = (r"(?:[A-Z][a-z]+(?:ish|ese|ian|an|ic|i)|French|Dutch|Greek|Latin|Czech|Thai|Urdu|Hebrew|Welsh|Basque|"
             r"Malay|Slovak|Tamil|Yiddish|Sanskrit|Maori|Tibetan|Nepali)")
_BRACKET = re.compile(rf"\s*\(\s*(?:in\s+)?(?:[A-Z][a-z]+\s+)?{_LANGUAGE}\s*:\s*(?P<rest>[^()]*)\)")
# "(sometimes also called Y)", "(released in the US as "Y")", "(aka Y)"; a year may sit between ("Act, 2005 (...")
_ADVERBS = r"(?:(?:sometimes|also|often|originally|formerly|previously|then|later|now|simply|commonly|usually|" \
           r"better|widely|locally|officially|popularly|informally)\s+)*"
_CALLED = re.compile(rf"(?P<year>\s*,\s*\d{{4}})?\s*\(\s*{_ADVERBS}(?:called|known\s+as|aka|a\.k\.a\.|nicknamed|titled|"
                     rf"entitled|referred\s+to\s+as|(?:released|published|distributed|shown)\s+(?:in\s+[^()\"\u201c]{{1,40}}?\s+)?as)"
                     rf"\s+(?P<rest>[^()]*)\)")
_LAST_OF = re.compile(r".*\sof\s+(?:the\s+)?")
_WHERE = re.compile(r"\s+in\s+(?:the\s+)?$")  # the words before a place that ends the bracket
_QUOTED = re.compile(r"(?:\"|\u201c|``)\s*(?P<name>[^\"\u201d]+?)\s*(?:\"|\u201d|'')")  # "d'Esquerra" keeps its '
_PLAIN = re.compile(r"[\s\u200e\u200f\u2013\u2014-]*(?P<name>[^\s;,\u2013\u2014][^;,\u2013\u2014]*?)"
                    r"\s*(?:[;,\u2013\u2014]|$)")


def nicknames(text: str, found: list[Mention]) -> tuple[list[Mention], list[tuple[Mention, Mention]]]:
    """`found` with each 'First [Middle] "Nick" Last' a person named "Nick Last" (the NER's mentions it
    overlaps replaced), and (that person, "First [Middle] Last") pairs of aliases. Only where the NER read a
    person in the span: quotes between capitalised words may also be a title."""
    out, pairs = list(found), []
    for m in _NICKNAME.finditer(text):
        s, e = m.span()
        over = [x for x in out if x.start < e and s < x.end]
        person = any(x.label == "Person" for x in over) or _LIFE.match(text, e)
        if not person or any(x.kind != "name" or x.start < s or x.end > e for x in over):
            continue
        person = Mention(s, e, f"{m['nick']} {m['last']}", "name", "Person")
        alias = Mention(s, e, f"{m['first']} {m['last']}", "name", "Person")
        out = sorted([x for x in out if x not in over] + [person], key=lambda x: x.start)
        pairs.append((person, alias))
    return out, pairs


def bracket_aliases(text: str, sent: list[Mention]) -> list[tuple[Mention, Mention]]:
    """(name, alias) for 'Name (Language: Alias)': the bracket's first quoted name, else its words up to a
    comma, semicolon or dash; the alias is the sentence's mention when the NER found it whole, else a new
    mention that replaces the parts of it the NER found in `sent`."""
    out = []
    for a in list(sent):
        m = _BRACKET.match(text, a.end) or _CALLED.match(text, a.end)
        if m is None or a.kind != "name" or a.ref is not None:
            continue
        q = _QUOTED.search(m["rest"]) or _PLAIN.match(m["rest"])
        if q is None or not any(c.isalpha() for c in q["name"]):
            continue
        s, e = m.start("rest") + q.start("name"), m.start("rest") + q.end("name")
        while s < e and text[s] in "\"\u201c'`":  # 'aka "Wretch' with no closing quote
            s += 1
        if text[s : s + 4] in ("the ", "The "):
            s += 4  # "called the Omnibus Act": a name's leading article
        if m.re is _CALLED and q.re is _PLAIN:  # "(known as Y in the United States)": where, not the name
            e = next((w.start() + s for x in sent if x.label == "Place" and x.end == e and x.start > s
                      and (w := _WHERE.search(text[s : x.start]))), e)
        b = next((x for x in sent if (x.start, x.end) == (s, e)), None) or Mention(s, e, text[s:e], "name", a.label)
        sent[:] = sorted([x for x in sent if not (s <= x.start and x.end <= e)] + [b], key=lambda x: x.start)
        if m.re is _CALLED and m["year"] and (of := _LAST_OF.search(a.text)):  # "Title IV of the X Act, 2005 (...)":
            whole, a = a, Mention(a.start + of.end(), a.end, a.text[of.end() :], "name", a.label)  # the year names
            sent[:] = [a if x is whole else x for x in sent]  # the Act, the bracket renames it
        out.append((a, b))
    return out
