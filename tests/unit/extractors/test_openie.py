"""Import of HippoRAG OpenIE triples as an extractor (no LLM, no Neo4j)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memgraph_neo4j.contracts import ExtractionInput, Extractor, NoGuide
from memgraph_neo4j.extractors.openie import NO_MATCH_ERROR, OpenIEExtractor, load_openie
from memgraph_neo4j.ingest.readers import read_musique_corpus

ROOT = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data")
MUSIQUE = SHARED / "musique_train"
OPENIE = MUSIQUE / "openie_gpt-3.5-turbo-1106.json"
needs_musique = pytest.mark.skipif(
    not (OPENIE.is_file() and (MUSIQUE / "corpus.json").is_file()),
    reason=f"shared benchmark data not found at {MUSIQUE} (set MEMGRAPH_SHARED_DATA to the shared/data folder)",
)

DOCS = [
    {
        "idx": 0,
        "title": "Journal of Mathematical Physics",
        "text": "The Journal of Mathematical Physics is published by the American Institute of Physics.",
        "extracted_entities": ["Journal of Mathematical Physics", "American Institute of Physics", "", 7, "1960"],
        "extracted_triples": [
            ["Journal of Mathematical Physics", "published by", "American Institute of Physics"],
            ["journal of mathematical physics", "first published in", "1960"],  # head in another case
            ["Journal of Mathematical Physics", "published by"],  # too short
            ["a", "b", "c", "d"],  # too long
            ["Journal of Mathematical Physics", "", "1960"],  # empty relation
            ["  ", "is", "x"],  # blank head
            ["x", 3, "y"],  # not a string
            "not a list",
            ["Journal of Mathematical Physics", "Published By", "American Institute of Physics "],  # duplicate
        ],
    },
    {
        "idx": 1,
        "title": "Paris",
        "text": "Paris is the capital   of France.",
        "extracted_entities": ["Paris", "France"],
        "extracted_triples": [["Paris", "capital of", "France"]],
    },
]


@pytest.fixture
def small_file(tmp_path: Path) -> Path:
    docs = [{**d, "passage": f"{d['title']}\n{d['text']}"} for d in DOCS]
    path = tmp_path / "openie_test.json"
    path.write_text(json.dumps({"docs": docs, "ents_by_doc": []}), encoding="utf-8")
    return path


def item(text: str, title: str | None = None, pid: str = "p") -> ExtractionInput:
    return ExtractionInput(passage_id=pid, doc_id="d", text=text, title=title)


def test_load_skips_and_counts_malformed(small_file: Path) -> None:
    f = load_openie(small_file)
    assert len(f.docs) == 2
    assert f.triples_total == 10
    assert f.skipped_triples == 6
    assert f.duplicate_triples == 1
    assert f.skipped_entities == 2
    assert f.docs[0].triples == [
        ("Journal of Mathematical Physics", "published by", "American Institute of Physics"),
        ("journal of mathematical physics", "first published in", "1960"),
    ]
    assert load_openie(small_file.parent).path == str(small_file)  # a folder with one openie_*.json


def test_match_by_text_title_or_passage(small_file: Path) -> None:
    f = load_openie(small_file)
    text = DOCS[1]["text"]
    for found in (
        f.find(text),
        f.find(text, "Paris"),
        f.find("Paris\nParis is the capital of France."),  # HippoRAG passage form, whitespace normalised
        f.find("  paris is the CAPITAL of france. "),
    ):
        assert found is not None and found.index == 1
    assert f.find("Paris is the capital of Italy.") is None


def test_extractor_outcomes(small_file: Path) -> None:
    ex = OpenIEExtractor(load_openie(small_file), None)
    assert isinstance(ex, Extractor) and ex.name == "openie"
    outs = ex.extract([item(DOCS[0]["text"], DOCS[0]["title"], "a"), item("Unknown text.", pid="b"),
                       item(DOCS[1]["text"], pid="c")], NoGuide())
    assert [o.passage_id for o in outs] == ["a", "b", "c"]
    assert outs[1].error == NO_MATCH_ERROR and outs[1].extraction is None and not outs[1].ok
    a = outs[0]
    assert a.ok and a.extractor == "openie" and a.model == "gpt-3.5-turbo-1106" and a.usage.cost == 0
    assert a.extraction is not None
    names = [e.name for e in a.extraction.entities]
    assert names == ["Journal of Mathematical Physics", "American Institute of Physics", "1960"]
    facts = [(x.head, x.relation, x.tail) for x in a.extraction.facts]
    # raw relation phrases; heads written in another case map onto the passage's entity name
    assert facts == [
        ("Journal of Mathematical Physics", "published by", "American Institute of Physics"),
        ("Journal of Mathematical Physics", "first published in", "1960"),
    ]
    assert {e.type for e in a.extraction.entities} == {"Thing"}  # no TypeAssigner given


def test_types_from_type_assigner(small_file: Path) -> None:
    from memgraph_neo4j.embeddings.minilm import get_minilm
    from memgraph_neo4j.extractors.typing import TypeAssigner
    from memgraph_neo4j.memory.ontology import load_ontology

    ex = OpenIEExtractor(load_openie(small_file), TypeAssigner(load_ontology(), get_minilm()))
    (out,) = ex.extract([item(DOCS[1]["text"], "Paris")], NoGuide())
    assert out.extraction is not None
    assert {e.name: e.type for e in out.extraction.entities} == {"Paris": "Place", "France": "Place"}
    (fact,) = out.extraction.facts
    assert (fact.head_type, fact.tail_type) == ("Place", "Place")


def test_rejects_other_json(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="docs"):
        load_openie(bad)


def test_passage_only_docs(tmp_path: Path) -> None:
    # Older HippoRAG files carry only `idx` and `passage`.
    path = tmp_path / "o.json"
    path.write_text(json.dumps({"docs": [{"idx": 5, "passage": "Rome\nRome is in Italy.",
                                          "extracted_entities": ["Rome"], "extracted_triples": []}]}))
    f = load_openie(path)
    (doc,) = f.docs
    assert (doc.idx, doc.title, doc.text) == (5, "Rome", "Rome is in Italy.")
    assert f.find("Rome is in Italy.", "Rome") is doc and f.find("Rome is in Italy.") is doc


@needs_musique
def test_real_musique_openie_matches_every_passage() -> None:
    f = load_openie(OPENIE)
    corpus = read_musique_corpus(MUSIQUE)
    assert len(corpus) == len(f.docs) == 1890
    # malformed triples in the real file: 112 of length 4, 70 of length 2, 3 longer
    assert (f.triples_total, f.skipped_triples) == (17419, 185)
    for form in ("text", "title+text", "passage"):
        hits = 0
        for i, d in enumerate(corpus):
            text, title = (d.text, d.title if form == "title+text" else None) if form != "passage" \
                else (f"{d.title}\n{d.text}", None)
            found = f.find(text, title)
            hits += found is not None and found.index == i
        assert hits == 1890, form
    outs = OpenIEExtractor(f, None).extract(
        [item(d.text, d.title, str(i)) for i, d in enumerate(corpus)], NoGuide())
    assert all(o.ok for o in outs)
    assert sum(len(o.extraction.facts) for o in outs if o.extraction) == 17419 - 185 - f.duplicate_triples
    for o in outs:  # every fact's head and tail is one of the passage's entities
        assert o.extraction is not None
        names = {e.name for e in o.extraction.entities}
        assert all(x.head in names and x.tail in names for x in o.extraction.facts)
