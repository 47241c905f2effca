"""The values a name states (memory/values.py): what must agree before resolution merges two names."""

from __future__ import annotations

import pytest

from memgraph_neo4j.memory.values import fact_values, same_values, value_signature, values_in


@pytest.mark.parametrize(("a", "b", "same"), [
    ("June 8, 1969", "December 4, 1969", False),  # the merge found on a 6k-passage build
    ("4 June 1969", "June 4, 1969", True),
    ("1969-06-04", "June 4, 1969", False),  # the same date, written so that the numbers differ: kept apart
    ("Louis I", "Louis II", False),
    ("Henry VIII", "Henry VII", False),
    ("World War II", "Second World War", True),
    ("1,000 km", "1000 km", True),
    ("05 May 2001", "5 May 2001", True),
    ("may 2001", "May 2001", False),  # lower-case "may" is not a month
    ("Washington DC", "Washington", True),  # "DC" is no numeral
    ("Michael Hurst", "Michael Eric Hurst", True),  # no values: the names are for other evidence to tell apart
    ("3.50 m", "3.5 m", True),
])
def test_same_values(a, b, same):
    assert same_values(a, b) is same


def test_signature_parts():
    assert value_signature("Rocky IV, 12 Sept. 1985") == (("12", "1985"), ("9",), ("4",))


def test_a_fact_s_values_must_be_in_its_evidence():
    values = fact_values("Marie Curie", "7 November 1867")
    assert values_in(values, "She was born on 7 Nov. 1867 in Warsaw.")
    assert not values_in(values, "She was born on 17 November 1867 in Warsaw.")
    assert values_in(fact_values("Ada Lovelace", "London"), "no numbers at all")
