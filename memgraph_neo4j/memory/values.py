"""The values a name states: its numbers, month names, regnal numerals and number words.

Entity resolution merges two names by embedding similarity only when they state the same values
(`same_values`): MiniLM puts "June 8, 1969" and "December 4, 1969" at cosine >= 0.9, and so "Louis I"
and "Louis II", "First Battle of Bull Run" and "Second ...". Merged, a fact about one takes the other's
value (4.2 % of the date facts of a 6k-passage entity-centric build carried a date their passage does not
state). Equal after normalisation means: thousands separators and leading zeros dropped, month names and
their abbreviations read as one month, case ignored; the values compared as a multiset, so "4 June 1969"
and "June 4, 1969" agree while "1969-06-04" (numbers 1969, 6, 4) does not: no merge, never a wrong one.

`fact_values` / `values_in` check a stored fact against its evidence (evaluation/health.value_fidelity).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

__all__ = ["ValueSignature", "fact_values", "same_value_form", "same_values", "value_signature", "values_in"]

ValueSignature = tuple[tuple[str, ...], ...]

_THOUSANDS = re.compile(r"(?<=\d)[,\u202f\u00a0 ](?=\d{3}(?!\d))")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_WORD = re.compile(r"[^\W\d_]+")
# regnal and sequel numerals up to 39 ("Louis II", "Henry VIII", "Rocky IV"); with L, C, D, M, upper-case
# words such as "DC", "MD", "CD", "MIX" would read as numbers
_ROMAN = re.compile(r"(X{0,3})(IX|IV|V?I{0,3})")
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10}
_MONTHS = {name: i + 1 for i, names in enumerate([
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
    ("november", "nov"), ("december", "dec")]) for name in names}
_NUMBER_WORDS = {w: i + 1 for i, w in enumerate(
    "one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBER_WORDS |= {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}


def value_signature(name: str) -> ValueSignature:
    """(numbers, months, numbers said in words or numerals) of a name, each sorted: what must agree for a merge.
    "World War II" and "Second World War" agree (2 in words); "World War 2" states the number in digits."""
    numbers, months, counted = _values(name)
    return tuple(sorted(numbers)), tuple(sorted(months)), tuple(sorted(counted))


def _values(name: str) -> tuple[list[str], list[str], list[str]]:
    text = unicodedata.normalize("NFKC", name)
    numbers = [_canonical_number(n) for n in _NUMBER.findall(_THOUSANDS.sub("", text))]
    months, counted = [], []
    for word in _WORD.findall(text):
        low = word.casefold()
        if low in _MONTHS and (len(low) > 3 or word[0].isupper()) and (low != "may" or word[0].isupper()):
            months.append(str(_MONTHS[low]))  # "Jan", "May": capitalised; "march": a month in any case
        elif word.isupper() and _ROMAN.fullmatch(word):
            counted.append(str(_roman(word)))
        elif low in _NUMBER_WORDS:
            counted.append(str(_NUMBER_WORDS[low]))
    return numbers, months, counted


def _roman(word: str) -> int:
    values = [_ROMAN_DIGITS[c] for c in word]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def same_values(a: str, b: str) -> bool:
    """Whether two names state the same values (both may state none)."""
    return value_signature(a) == value_signature(b)


# Words that say nothing about a value ("the year 2006" is 2006; "1964 and" is an extractor's cut) and unit
# spellings read as one unit; every other word qualifies the value: "the late 1950s" is not "the 1950s",
# though the two state the same numbers and MiniLM puts them at cosine 0.93.
_FILLER = frozenset("the a an and or of in on at by year years".split())
_UNITS = {"kilometre": "km", "kilometres": "km", "kilometer": "km", "kilometers": "km", "metre": "m", "metres": "m",
          "meter": "m", "meters": "m", "mile": "mi", "miles": "mi", "kilogram": "kg", "kilograms": "kg",
          "foot": "ft", "feet": "ft", "square": "sq"}


def _value_words(name: str) -> frozenset[str]:
    text = unicodedata.normalize("NFKC", name).casefold().replace("per cent", "percent").replace("%", " percent ")
    words = (w for w in _WORD.findall(text) if w not in _FILLER and w not in _MONTHS and w not in _NUMBER_WORDS)
    return frozenset(_UNITS.get(w, w) for w in words)


def same_value_form(a: str, b: str) -> bool:
    """Whether two dates or quantities are one value: the same values (`same_values`) and the same words
    around them, fillers dropped and units read as one ("9 km" is "9 kilometres"; "the late 1950s" is not
    "the 1950s", "early 1950" not "1950")."""
    return same_values(a, b) and _value_words(a) == _value_words(b)


def fact_values(*names: str) -> Counter[str]:
    """The numbers and months a fact's head and tail state (what its evidence must state too)."""
    out: Counter[str] = Counter()
    for name in names:
        numbers, months, _ = _values(name)
        out.update(numbers)
        out.update(f"month:{m}" for m in months)
    return out


def values_in(values: Counter[str], text: str) -> bool:
    """Whether `text` states every one of `values` (fact_values of the text holds them)."""
    found = fact_values(text)
    return all(found[v] > 0 for v in values)


def _canonical_number(number: str) -> str:
    whole, _, fraction = number.partition(".")
    fraction = fraction.rstrip("0")
    return (whole.lstrip("0") or "0") + (f".{fraction}" if fraction else "")
