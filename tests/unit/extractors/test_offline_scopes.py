"""Scoped attribution (issue 27): he/she and "the company" resolve inside their own section, never across
a heading; unresolved, they give no fact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memgraph_neo4j.extractors.offline import OfflineExtractor
from memgraph_neo4j.extractors.offline.ner import scope_starts
from memgraph_neo4j.memory.ontology import load_ontology

ONTOLOGY = load_ontology()
NOTES = (Path(__file__).parents[2] / "fixtures" / "sections" / "notes.md").read_text(encoding="utf-8")
# the same text as HTML and DOCX readers give it: headings are lines of their own, without "#"
PLAIN = re.sub(r"(?m)^#+ ", "", NOTES)
HEADINGS = [m.start() for m in re.finditer(r"(?m)^(Ada Lovelace|Grace Hopper|Early life|Microsoft|Apple)$", PLAIN)]


def _triples(ex: OfflineExtractor, text: str, scopes: list[int] = ()) -> set[tuple[str, str, str]]:
    return {(f.head, f.relation, f.tail) for f in ex.extract_text(text, scopes).facts}


def test_scope_starts_are_markdown_headings_and_given_offsets() -> None:
    assert scope_starts("a\n# B\nc\n#hashtag", [3, 0, 99]) == [0, 2, 3]
    assert scope_starts("no headings") == [0]


@pytest.mark.parametrize("ner", ["heuristic", "spacy"])
@pytest.mark.parametrize("form", ["markdown", "plain with section offsets"])
def test_pronouns_resolve_within_their_section_only(ner: str, form: str) -> None:
    ex = OfflineExtractor(ONTOLOGY, ner=ner)
    if ner == "spacy" and ex.ner != "spacy":
        pytest.skip("spaCy model not installed")
    got = _triples(ex, NOTES) if form == "markdown" else _triples(ex, PLAIN, HEADINGS)
    wrong = {(h, r, t) for h, r, t in got if t in ("New York City", "Arlington", "Cupertino") and h != "Grace Hopper"}
    assert not wrong  # no "Ada Lovelace born_in New York City", nothing for "Early life" or "Apple"
    assert ("Grace Hopper", "born_in", "New York City") in got
    assert not any(t == "Arlington" for _, _, t in got)  # "She" under "Early life" names no one: no fact
    if ner == "spacy":
        assert ("Microsoft", "founded_by", "Bill Gates") in got  # "the company" of its own section


def test_without_section_offsets_the_plain_text_still_crosses_headings() -> None:
    # the reason the pipeline passes the readers' section starts: the plain text alone hides the headings
    ex = OfflineExtractor(ONTOLOGY, ner="heuristic")
    assert ("Grace Hopper", "born_in", "New York City") not in _triples(ex, PLAIN)
