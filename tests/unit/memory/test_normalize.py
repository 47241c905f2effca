"""Normalisation of relations, types and entity names, and collision-free hashing."""

from __future__ import annotations

import pytest

from memgraph_neo4j.memory.normalize import (
    MAX_INDEX_KEY_BYTES,
    content_hash,
    index_safe_key,
    normalize_entity_name,
    normalize_relation,
    normalize_type,
)
from memgraph_neo4j.memory.ontology import Ontology, load_ontology


@pytest.fixture(scope="module")
def onto() -> Ontology:
    return load_ontology()


@pytest.mark.parametrize("text", ["part_of", "Part Of", "part of", " part-of ", "PART_OF", "partOf", "part  of.", "Part–Of"])
def test_part_of_variants(text: str) -> None:
    assert normalize_relation(text) == "part_of"


def test_relation_synonyms_and_auxiliaries(onto: Ontology) -> None:
    assert normalize_relation("was born in", onto) == "born_in"
    assert normalize_relation("Birthplace", onto) == "born_in"
    assert normalize_relation("is part of", onto) == "part_of"
    assert normalize_relation("is located in", onto) == "located_in"
    assert normalize_relation("was directed by", onto) == "directed_by"
    # An auxiliary before a bare noun is not stripped: it would flip the direction.
    assert normalize_relation("is director", onto) == "is_director"
    assert normalize_relation("flows through", onto) == "flows_through"  # unknown -> snake_case
    assert normalize_relation("member's of") == "members_of"
    assert normalize_relation("  !! ") == ""


def test_normalize_type(onto: Ontology) -> None:
    assert normalize_type("person", onto) == "Person"
    assert normalize_type("GPE", onto) == "Place"
    assert normalize_type("Cities", onto) == "Place"
    assert normalize_type("date/time", onto) == "Date"
    assert normalize_type("WORK_OF_ART", onto) == "Work"
    assert normalize_type("sports team", onto) == "Organization"
    assert normalize_type("musical instrument", onto) == "MusicalInstrument"
    assert normalize_type("NBA team") == "NbaTeam"
    assert normalize_type("") == normalize_type("  ") == normalize_type(None) == "Thing"


def test_normalize_entity_name() -> None:
    assert normalize_entity_name('  "The  Beatles" ') == "the beatles"
    assert normalize_entity_name("Ｔｏｋｙｏ") == "tokyo"  # NFKC full-width
    assert normalize_entity_name("Straße") == normalize_entity_name("STRASSE")  # casefold
    assert normalize_entity_name("U.S.") == normalize_entity_name("U.S")
    assert normalize_entity_name("«Le Monde»") == "le monde"
    assert normalize_entity_name("Queen (band)") == "queen (band)"  # inner punctuation kept
    assert normalize_entity_name("The Who") != normalize_entity_name("Who")  # articles kept
    assert normalize_entity_name("C++") == "c++"
    assert normalize_entity_name(".NET") == ".net"


def test_content_hash() -> None:
    h = content_hash("ab", "c")
    assert len(h) == 32 and int(h, 16) >= 0
    assert h == content_hash("ab", "c")
    assert h != content_hash("a", "bc")
    assert content_hash("a", "") != content_hash("a") != content_hash("", "a")
    assert content_hash("x") == content_hash(b"x")


def test_keys_past_an_index_entry_are_bounded_by_bytes_and_stay_one_per_name():
    short = "ada lovelace " * 500  # 6,500 bytes: a key that could be stored before keeps its value
    assert index_safe_key(short) == short and normalize_entity_name(short) == short.strip()
    long_ = "\u00e9" * 5000  # 10,000 bytes in UTF-8: cut between characters, never inside one
    key = index_safe_key(long_)
    assert len(key.encode("utf-8")) <= MAX_INDEX_KEY_BYTES and key.startswith("\u00e9" * 3000)
    assert key != index_safe_key(long_ + "x") and key == index_safe_key("\u00e9" * 5000)
    assert normalize_entity_name("Zorblax " + long_) == index_safe_key("zorblax " + long_)
    assert len(normalize_type("Zq " * 6000).encode("utf-8")) <= MAX_INDEX_KEY_BYTES
