"""Provenance: sections -> a passage's pages and heading, Markdown headings, stable passage ids, citations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from format_samples import write_pdf

from memgraph_neo4j.ingest.document import Document, Section, sections_from
from memgraph_neo4j.ingest.formats.markdown import markdown_sections
from memgraph_neo4j.ingest.pipeline import passage_rows
from memgraph_neo4j.ingest.readers import read_path
from memgraph_neo4j.retrieval.base import Hit


def test_sections_merge_page_and_heading_breakpoints() -> None:
    sections = sections_from(100, pages=[(0, 1), (40, 2), (80, 3)], headings=[(10, ("A",)), (60, ("A", "B"))])
    assert [(s.start, s.end, s.page, s.heading) for s in sections] == [
        (0, 10, 1, ()), (10, 40, 1, ("A",)), (40, 60, 2, ("A",)), (60, 80, 2, ("A", "B")), (80, 100, 3, ("A", "B"))]
    assert sections_from(100) == []


def test_provenance_pages_span_and_heading_by_majority() -> None:
    doc = Document(text="x" * 100, sections=sections_from(100, pages=[(0, 1), (50, 2)],
                                                          headings=[(0, ("Intro",)), (45, ("Body",))]))
    first = doc.provenance(10, 40)
    assert (first.page, first.page_end, first.heading) == (1, 1, "Intro")
    span = doc.provenance(40, 90)  # starts in the tail of "Intro" but lies mostly under "Body"
    assert (span.page, span.page_end, span.heading) == (1, 2, "Body")
    assert Document(text="plain").provenance(0, 5).page is None
    gappy = Document(text="x" * 30, sections=[Section(start=0, end=10, page=4), Section(start=20, end=30, page=5)])
    assert (gappy.provenance(12, 18).page, gappy.provenance(12, 25).page_end) == (4, 5)


def test_sections_are_validated() -> None:
    with pytest.raises(ValueError, match="out of order or outside the text"):
        Document(text="short", sections=[Section(start=0, end=50)])
    with pytest.raises(ValueError, match="out of order"):
        Document(text="x" * 20, sections=[Section(start=5, end=10), Section(start=0, end=5)])


def test_markdown_heading_paths_skip_code_fences() -> None:
    text = "intro\n# Top\ntext\n```\n# not a heading\n```\n## Sub ##\nmore\n### Deep\nx\n# Next\ny"
    found = {text[s.start:s.end].split("\n")[0]: s.heading for s in markdown_sections(text)}
    assert found == {"intro": (), "# Top": ("Top",), "## Sub ##": ("Top", "Sub"), "### Deep": ("Top", "Sub", "Deep"),
                     "# Next": ("Next",)}
    assert markdown_sections("no headings at all") == []


def test_passage_ids_of_plain_inputs_are_unchanged(tmp_path: Path) -> None:
    # ids computed by the code before documents had sections: re-ingesting old inputs stays a no-op
    (tmp_path / "a.txt").write_text("Ada Lovelace was born in London in 1815. " * 60, encoding="utf-8")
    rows = passage_rows(read_path(tmp_path / "a.txt"), 256, 32)
    assert [(r.id, r.start, r.end) for r in rows] == [
        ("1a2235d0d69b6cf28a733c8a1ce27bc7", 0, 1049), ("fb6be46bcc4264719b9040a7c72d04aa", 919, 1967),
        ("ec0951b3c4303d99963e44e2a66606d4", 1839, 2459)]
    assert all(r.page is None and r.page_end is None and r.heading is None for r in rows)
    corpus = tmp_path / "m.json"
    corpus.write_text(json.dumps([{"title": "A", "text": "a a"}, {"title": "B", "text": "b b"}]), encoding="utf-8")
    assert [r.id for r in passage_rows(read_path(corpus), 256, 32)] == [
        "b06b6dfdcae8dc5733e15026e52d8377", "8042c19b0495b8e4a79225c13f8d70a7"]


def test_pdf_passages_carry_pages_and_headings(tmp_path: Path) -> None:
    [doc] = read_path(write_pdf(tmp_path / "r.pdf"))
    rows = passage_rows([doc], 64, 8)
    assert len(rows) > 6
    for row in rows:
        assert row.text == doc.text[row.start:row.end] and 1 <= row.page <= row.page_end <= 3
    assert rows[0].page == 1 and rows[0].heading == "Introduction" and rows[-1].page_end == 3
    assert any(r.page == 2 and r.heading == "History > Monastic era" for r in rows)
    assert any(r.page < r.page_end for r in rows)  # a window across a page break names both pages
    assert [r.page for r in rows] == sorted(r.page for r in rows)


def test_hit_label_names_pages_and_heading() -> None:
    assert Hit(id="p", score=1, name="Report", page=3, page_end=3).label() == "Report, p. 3"
    assert Hit(id="p", score=1, name="Report", page=3, page_end=4, heading="Methods > Sampling").label() == \
        "Report, pp. 3-4, § Methods > Sampling"
    assert Hit(id="p", score=1, name="Cheddar", heading="Cheddar > History").label() == "Cheddar, § History"
    assert Hit(id="p", score=1, name="Cheddar", heading="Cheddar").label() == "Cheddar"
    assert Hit(id="p", score=1, name="Curie").label() == "Curie" and Hit(id="p", score=1).label() == ""
