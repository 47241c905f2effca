"""Ontology loading: the default file, line-accurate errors, cross-references, hashing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from memgraph_neo4j.memory.ontology import Ontology, OntologyError, load_ontology, parse_ontology

REPO = Path(__file__).resolve().parents[3]

GOOD = textwrap.dedent(
    """\
    version: 1.0
    mode: strict
    promotion:
      threshold: 3
    entity_types:
      - name: Person
        description: A human being.
        aliases: [human, per]
      - name: Place
        description: A location.
        aliases: [city, GPE]
      - name: Thing
        description: Anything else.
    relations:
      - name: born_in
        description: Birth place.
        domain: [Person]
        range: [Place]
        functional: true
        synonyms: [was born in, birthplace]
      - name: spouse_of
        description: Married to.
        domain: [Person]
        range: [Person]
        temporal: true
        inverse: spouse_of
    """
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "onto.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def error_for(tmp_path: Path, text: str) -> OntologyError:
    path = write(tmp_path, text)
    with pytest.raises(OntologyError) as info:
        load_ontology(path)
    assert str(path) in str(info.value)
    return info.value


def test_default_ontology_loads() -> None:
    onto = load_ontology()
    names = {t.name for t in onto.entity_types}
    assert {"Person", "Organization", "Place", "Work", "Event", "Date", "Quantity", "Concept", "Thing"} <= names
    assert {"Product", "Species"} <= names
    assert len(onto.relations) >= 25
    assert onto.mode == "open"
    assert onto.promotion.percentile == 20 and onto.promotion.threshold is None
    assert (onto.chunking.tokens, onto.chunking.overlap) == (256, 32)
    assert onto.relation("born_in").functional and not onto.relation("born_in").temporal
    assert onto.relation("employed_by").temporal and onto.relation("member_of").temporal
    assert onto.relation("child_of").inverse == "parent_of"
    assert all(len(t.description) > 40 for t in onto.entity_types)  # usable for embedding typing
    assert load_ontology(REPO / "ontology.yaml") == onto


def test_good_file_and_version_hash(tmp_path: Path) -> None:
    onto = load_ontology(write(tmp_path, GOOD))
    assert onto.version == "1.0" and onto.mode == "strict"
    assert onto.promotion.threshold == 3 and onto.promotion.percentile is None
    assert onto.type_lookup["gpe"] == "Place"
    assert onto.relation_lookup["was_born_in"] == "born_in"
    # Same content, different comments/formatting -> same hash; different content -> different hash.
    reformatted = "# a comment\n" + GOOD.replace("[human, per]", "\n          - human\n          - per")
    assert load_ontology(write(tmp_path, reformatted)).version_hash == onto.version_hash
    assert len(onto.version_hash) == 32
    changed = GOOD.replace("threshold: 3", "threshold: 4")
    assert load_ontology(write(tmp_path, changed)).version_hash != onto.version_hash


def test_bad_field_type_names_line_and_field(tmp_path: Path) -> None:
    err = error_for(tmp_path, GOOD.replace("functional: true", "functional: perhaps"))
    line = GOOD.splitlines().index("    functional: true") + 1
    assert err.problems[0][:2] == (line, "relations[0].functional")
    assert f"line {line}, field relations[0].functional" in str(err)


def test_unknown_domain_type_names_line(tmp_path: Path) -> None:
    text = GOOD.replace("    domain: [Person]\n    range: [Person]", "    domain: [Persn]\n    range: [Person]")
    err = error_for(tmp_path, text)
    line = text.splitlines().index("    domain: [Persn]") + 1
    assert err.problems == [(line, "relations[1].domain[0]", "unknown entity type 'Persn'")]


def test_alias_in_range_suggests_canonical(tmp_path: Path) -> None:
    err = error_for(tmp_path, GOOD.replace("range: [Place]", "range: [city]"))
    assert "unknown entity type 'city' (did you mean 'Place'?)" in str(err)


def test_unknown_inverse_and_key_typo(tmp_path: Path) -> None:
    err = error_for(tmp_path, GOOD.replace("inverse: spouse_of", "inverse: married_to"))
    line = GOOD.splitlines().index("    inverse: spouse_of") + 1
    assert err.problems[0][:2] == (line, "relations[1].inverse")
    err = error_for(tmp_path, GOOD.replace("    range: [Place]", "    rnge: [Place]"))
    assert err.problems[0][1] == "relations[0].rnge" and "Extra inputs" in err.problems[0][2]


def test_missing_field_points_at_enclosing_item(tmp_path: Path) -> None:
    text = GOOD.replace("    description: A location.\n", "")
    err = error_for(tmp_path, text)
    assert err.problems[0][:2] == (text.splitlines().index("  - name: Place") + 1, "entity_types[1].description")


def test_policy_errors(tmp_path: Path) -> None:
    err = error_for(tmp_path, GOOD.replace("  threshold: 3", "  threshold: 3\n  percentile: 20"))
    assert err.problems[0][:2] == (3, "promotion") and "not both" in err.problems[0][2]
    err = error_for(tmp_path, GOOD + "chunking:\n  tokens: 64\n  overlap: 64\n")
    assert err.problems[0][1] == "chunking" and "overlap" in err.problems[0][2]
    err = error_for(tmp_path, GOOD.replace("mode: strict", "mode: loose"))
    assert err.problems[0][:2] == (2, "mode")


def test_duplicates_and_syntax(tmp_path: Path) -> None:
    err = error_for(tmp_path, GOOD.replace("aliases: [city, GPE]", "aliases: [city, human]"))
    assert "'human' is already used by type 'Person'" in str(err)
    err = error_for(tmp_path, GOOD.replace("synonyms: [was born in, birthplace]", "synonyms: [was born in]\n    synonyms: [x]"))
    assert "duplicate key 'synonyms'" in str(err)
    err = error_for(tmp_path, GOOD.replace("aliases: [city, GPE]", "aliases: [city, GPE"))
    assert "YAML syntax error" in str(err) and "line " in str(err)
    err = error_for(tmp_path, "")
    assert "empty" in str(err)


def test_in_memory_construction_checks_references() -> None:
    with pytest.raises(ValueError, match="unknown entity type 'Nope'"):
        Ontology(
            entity_types=[{"name": "Thing", "description": "x"}],
            relations=[{"name": "r", "description": "x", "domain": ["Nope"]}],
        )
    assert parse_ontology(GOOD).relation("spouse_of").inverse == "spouse_of"
