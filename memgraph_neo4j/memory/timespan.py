"""Dates and time qualifiers as instants, with no database: `parse_time` (one date or timestamp) and
`time_interval` (a fact's time qualifier -> `valid_at`, `invalid_at`).

The convention of `time_interval`: a date names a period at its precision (a year, a month, a day, a
decade like "the 1980s"; a timestamp with a clock is an instant). `valid_at` is the first instant the
fact holds, `invalid_at` the first instant it no longer holds (half-open: valid_at <= t < invalid_at).

- "1979", "in 1979", "on 8 June 1969", "since 1986", "from 1975", "as of May 2023": valid from the start
  of the period, no end ("in 1979" says when it became true, not that it stopped);
- "from 1975 to 1979", "1975 to 1979", "1975-1979", "1975–79", "between 1990 and 2005", "1975 through
  1979", "from May 1979 until June 1980": valid from the start of the first period until the end of the
  last one, inclusive: [1975-01-01, 1980-01-01), [1979-05-01, 1980-07-01);
- "until 2001", "till May 2001", "through 2001": no start, invalid from the end of the period
  (2002-01-01, 2001-06-01); "before 2001": invalid from its start (2001-01-01); "after 1990": valid
  from its end (1991-01-01);
- no date found, or an end before the start: what can be read is kept ((None, None) at worst).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], 1)}
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_DECADE = re.compile(r"\b(1[5-9]\d0|20\d0)s\b")
_MONTH = re.compile(r"\b(" + "|".join(_MONTHS) + r"|" + "|".join(m[:3] for m in _MONTHS) + r")\b", re.I)
_DAY = re.compile(r"\b([0-2]?\d|3[01])(?:st|nd|rd|th)?\b")
_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)?", re.I)

# the word before a qualifier's date(s), and the words or dashes between the two ends of a range
_LEAD = re.compile(r"^(in|on|during|since|from|as of|after|until|till|up to|through|before|between)\b\s*", re.I)
_UNTIL = ("until", "till", "up to", "through")
_SPLIT = re.compile(r"\s+(?:to|until|till|through|thru|and)\s+|\s*[\u2013\u2014]\s*|\s+-\s+", re.I)
_HYPHEN = re.compile(r"^(.*\d{4})\s*-\s*(\d{4}|\d{2})$")  # "1975-1979", "1975-79" (ISO "2023-05-08" is not)
_ISO = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?(?:[T ].*)?$")


def parse_time(text: str | datetime | None) -> datetime | None:
    """A timestamp from ISO 8601 or free text ("1:56 pm on 8 May, 2023", "May 2023", "2019"), in UTC;
    None when no year is found. Missing month or day default to the first."""
    period = _period(text)
    return period[0] if period is not None else None


def time_interval(qualifier: str | None) -> tuple[datetime | None, datetime | None]:
    """(valid_at, invalid_at) of a time qualifier, by the convention of the module docstring."""
    text = (qualifier or "").strip().strip("()").strip()
    lead = _LEAD.match(text)
    word = lead.group(1).lower() if lead else ""
    text = text[lead.end():] if lead else text
    first, last = _bounds(text, between=word == "between")
    if last is not None:  # a range: both ends, the end's period included
        start, end = _period(first), _period(last)
        valid_at = start[0] if start else None
        invalid_at = end[1] if end else None
        if valid_at is not None and invalid_at is not None and invalid_at <= valid_at:
            invalid_at = None  # "1990 to 1980": an end before its start is not read
        return valid_at, invalid_at
    period = _period(first)
    if period is None:
        return None, None
    if word in _UNTIL:
        return None, period[1]
    if word == "before":
        return None, period[0]
    if word == "after":
        return period[1], None
    return period[0], None


def _bounds(text: str, between: bool) -> tuple[str, str | None]:
    """The two ends of a range ("1975", "1979"), or the text and None; an end without its year or
    month borrows them from the other end ("8-10 June 1969", "May to June 1980")."""
    parts = _SPLIT.split(text, maxsplit=1) if between or not re.search(r"\sand\s", text, re.I) else [text]
    if len(parts) == 1 and not _ISO.match(text) and (hyphen := _HYPHEN.match(text)):
        parts = [hyphen.group(1), hyphen.group(2)]
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        return text, None
    first, last = parts[0].strip(), parts[1].strip()
    if re.fullmatch(r"\d{2}", last) and (year := _YEAR.search(first)):
        last = year.group(1)[:2] + last  # "1975-79"
    if _YEAR.search(first) is None and _DECADE.search(first) is None and (year := _YEAR.search(last)):
        month = _MONTH.search(last)
        if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", first) and month:
            first = f"{first} {month.group(1)} {year.group(1)}"
        else:
            first = f"{first} {year.group(1)}"
    return first, last


def _period(text: str | datetime | None) -> tuple[datetime, datetime] | None:
    """The period a date names, as (its first instant, the first instant after it)."""
    if text is None:
        return None
    if isinstance(text, datetime):
        return _utc(text), _utc(text)
    value = str(text).strip()
    if not value:
        return None
    try:
        moment = _utc(datetime.fromisoformat(value.replace("Z", "+00:00")))
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return moment, moment + timedelta(days=1)
        return moment, moment
    except ValueError:
        pass
    if (iso_month := re.fullmatch(r"(\d{4})-(0[1-9]|1[0-2])", value)) is not None:  # "2023-05"
        start = datetime(int(iso_month.group(1)), int(iso_month.group(2)), 1, tzinfo=UTC)
        return start, _next_month(start)
    year = _YEAR.search(value)
    if year is None:
        decade = _DECADE.search(value)
        if decade is None:
            return None
        start = int(decade.group(1))
        return datetime(start, 1, 1, tzinfo=UTC), datetime(start + 10, 1, 1, tzinfo=UTC)
    rest = value[:year.start()] + " " + value[year.end():]
    month_match = _MONTH.search(rest)
    month = _MONTHS[_full_month(month_match.group(1))] if month_match else None
    day = None
    if month_match:
        clockless = _CLOCK.sub(" ", rest)
        day_match = _DAY.search(clockless)
        day = int(day_match.group(1)) if day_match and 1 <= int(day_match.group(1)) <= 31 else None
    y = int(year.group(1))
    if (clock := _CLOCK.search(value)) is not None:
        hour, minute = int(clock.group(1)) % 24, int(clock.group(2)) % 60
        meridiem = (clock.group(3) or "").lower().replace(".", "")
        if meridiem == "pm" and hour < 12:
            hour += 12
        elif meridiem == "am" and hour == 12:
            hour = 0
        moment = _date(y, month or 1, day or 1, hour, minute)
        return moment, moment
    if day is not None and month is not None:
        start = _date(y, month, day)
        return start, (start + timedelta(days=1)) if start.day == day else _next_month(start)
    if month is not None:
        start = datetime(y, month, 1, tzinfo=UTC)
        return start, _next_month(start)
    return datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC)


def _date(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    try:
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError:  # 31 February: the month
        return datetime(year, month, 1, hour, minute, tzinfo=UTC)


def _next_month(start: datetime) -> datetime:
    return datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)


def _full_month(word: str) -> str:
    word = word.lower()
    return next(m for m in _MONTHS if m.startswith(word[:3]))


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
