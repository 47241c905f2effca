"""Time qualifiers -> (valid_at, invalid_at): the convention of memory/timespan.py, form by form."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memgraph_neo4j.memory.timespan import parse_time, time_interval


def d(year: int, month: int = 1, day: int = 1, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(("qualifier", "expected"), [
    # one date: valid from the start of its period, no end
    ("1979", (d(1979), None)),
    ("in 1979", (d(1979), None)),
    ("(1986)", (d(1986), None)),
    ("since 1986", (d(1986), None)),
    ("from 1975", (d(1975), None)),
    ("May 1979", (d(1979, 5), None)),
    ("in May 1979", (d(1979, 5), None)),
    ("8 June 1969", (d(1969, 6, 8), None)),
    ("on June 8, 1969", (d(1969, 6, 8), None)),
    ("2023-05-08", (d(2023, 5, 8), None)),
    ("in the 1980s", (d(1980), None)),
    # ranges: the end's period included
    ("from 1975 to 1979", (d(1975), d(1980))),
    ("1975 to 1979", (d(1975), d(1980))),
    ("(1975 to 1979)", (d(1975), d(1980))),
    ("1975\u20131979", (d(1975), d(1980))),  # en dash
    ("1975 \u2014 1979", (d(1975), d(1980))),  # em dash
    ("1975-1979", (d(1975), d(1980))),
    ("1975\u201379", (d(1975), d(1980))),  # two-digit end year
    ("between 1990 and 2005", (d(1990), d(2006))),
    ("from 1990 to 2005", (d(1990), d(2006))),
    ("1975 through 1979", (d(1975), d(1980))),
    ("from May 1979 until June 1980", (d(1979, 5), d(1980, 7))),
    ("May to June 1980", (d(1980, 5), d(1980, 7))),
    ("from December 1999 to December 2000", (d(1999, 12), d(2001))),
    ("8\u201310 June 1969", (d(1969, 6, 8), d(1969, 6, 11))),
    ("from 8 June 1969 to 31 December 1969", (d(1969, 6, 8), d(1970))),
    ("the 1970s to the 1980s", (d(1970), d(1990))),
    # an end alone
    ("until 2001", (None, d(2002))),
    ("till May 2001", (None, d(2001, 6))),
    ("through 8 June 1969", (None, d(1969, 6, 9))),
    ("before 2001", (None, d(2001))),
    ("after 1990", (d(1991), None)),
    # nothing to read; an end before its start is dropped
    ("spring", (None, None)),
    ("", (None, None)),
    (None, (None, None)),
    ("1990 to 1980", (d(1990), None)),
])
def test_time_interval(qualifier, expected):
    assert time_interval(qualifier) == expected


def test_iso_dates_are_no_ranges():
    assert time_interval("2023-05") == (d(2023, 5), None) and time_interval("until 2023-05") == (None, d(2023, 6))
    assert time_interval("2023-05-08T10:00:00Z") == (d(2023, 5, 8, 10), None)
    assert time_interval("2023-05-08 to 2023-05-10") == (d(2023, 5, 8), d(2023, 5, 11))


def test_an_instant_is_its_own_period():
    # a clock time: the instant, as parse_time reads it; "until" it: invalid from that instant
    assert time_interval("until 1:56 pm on 8 May, 2023") == (None, d(2023, 5, 8, 13, 56))
    assert parse_time("1:56 pm on 8 May, 2023") == d(2023, 5, 8, 13, 56)


def test_parse_time_reads_the_start():
    assert parse_time("May 1979") == d(1979, 5) and parse_time("31 February 2020") == d(2020, 2)
    assert parse_time("nothing") is None and parse_time(datetime(2020, 1, 1)) == d(2020)
