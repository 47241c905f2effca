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
from memgraph_neo4j.retrieval.answer import build_context
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult
from memgraph_neo4j.retrieval.extractive import sentences


def test_sections_merge_page_and_heading_breakpoints() -> None:
    sections = sections_from(100, pages=[(0, 1), (40, 2), (80, 3)], headings=[(10, ("A",)), (60, ("A", "B"))])
    assert [(s.start, s.end, s.page, s.heading) for s in sections] == [
        (0, 10, 1, ()), (10, 40, 1, ("A",)), (40, 60, 2, ("A",)), (60, 80, 2, ("A", "B")), (80, 100, 3, ("A", "B"))]
    assert sections_from(100) == []


def test_provenance_pages_span_and_heading_where_the_passage_starts() -> None:
    doc = Document(text="x" * 100, sections=sections_from(100, pages=[(0, 1), (50, 2)],
                                                          headings=[(0, ("Intro",)), (45, ("Body",))]))
    first = doc.provenance(10, 40)
    assert (first.page, first.page_end, first.heading) == (1, 1, "Intro")
    span = doc.provenance(40, 90)  # lies mostly under "Body", but starts in the tail of "Intro"
    assert (span.page, span.page_end, span.heading) == (1, 2, "Intro")
    assert [(p.offset, p.page, p.heading) for p in doc.locations(40, 90)] == [(0, 1, "Intro"), (5, 1, "Body"),
                                                                             (10, 2, "Body")]
    assert doc.locations(10, 40) == doc.locations(10, 40)[:1] and Document(text="plain").locations(0, 5) == []
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


TESLA_LAMARR = ("## Nikola Tesla\n\n" + "Nikola Tesla designed the alternating current motor. " * 3
                + "\n\n## Hedy Lamarr\n\nHedy Lamarr co-invented frequency hopping in 1941. "
                + "\n\n## Thomas Edison\n\n" + "Thomas Edison patented the phonograph in 1878. " * 12)


def _hit(row, **kw) -> Hit:
    """The hit retrieval would return for a passage row (context.finish reads the same fields)."""
    return Hit(id=row.id, score=1, name=row.title, text=row.text, page=row.page, page_end=row.page_end,
               heading=row.heading, sections=json.loads(row.sections) if row.sections else None, **kw)


def test_a_sentence_is_labelled_by_its_own_heading_not_the_passages(tmp_path: Path) -> None:
    # issue 27: a Hedy Lamarr hit was labelled "§ Nikola Tesla", the section covering most of its passage
    (tmp_path / "inventors.md").write_text(TESLA_LAMARR, encoding="utf-8")
    [doc] = read_path(tmp_path / "inventors.md")
    row = next(r for r in passage_rows([doc], 64, 8) if "Hedy Lamarr co-invented" in r.text)
    hit = _hit(row).model_copy(update={"name": "notes"})
    assert hit.heading == "Nikola Tesla" and hit.label() == "notes, § Nikola Tesla"  # the passage starts there
    hedy = next(x for x in sentences(row.text) if x.startswith("Hedy"))
    assert hit.at(hedy).label() == "notes, § Hedy Lamarr"
    # a search hit shown for a question: labelled by the sentence that matched it (query, ask's context)
    assert hit.matched("Who co-invented frequency hopping?").label() == "notes, § Hedy Lamarr"
    assert hit.matched("Who patented the phonograph?").heading == "Thomas Edison"
    assert hit.matched("").label() == "notes, § Nikola Tesla"  # nothing matched: where the passage starts
    context, _ = build_context(RetrievalResult(method="dense", passages=[hit]), [], "Who invented frequency hopping?")
    assert context.startswith("[P1] notes, § Hedy Lamarr\n")
    assert hit.at("Thomas Edison patented").heading == "Thomas Edison"
    assert hit.at("Nikola Tesla designed the alternating current motor.").heading == "Nikola Tesla"
    assert hit.at("not in the passage").heading == row.heading and hit.label() == hit.at("absent").label()
    assert "sections" not in hit.model_dump()  # the spans stay out of the hit's output


def test_a_sentence_on_the_next_page_is_labelled_by_its_page_and_heading(tmp_path: Path) -> None:
    # issue 27: the Atacama sentence (page 3, § Deserts) was labelled "geo, pp. 2-3, § Rivers"
    pages = [[(0, "Mountains", "The Andes run along the west coast of South America. " * 6)],
             [(0, "Rivers", "The Amazon carries more water than any other river on Earth. " * 6)],
             [(0, "Deserts", "The Atacama Desert is the driest nonpolar desert in the world. "
                             + "Dunes cover part of the Sahara. " * 6)]]
    [doc] = read_path(write_pdf(tmp_path / "geo.pdf", pages=pages, title="geo"))
    row = next(r for r in passage_rows([doc], 64, 8) if "Atacama" in r.text)
    hit = _hit(row)
    assert hit.label() == "geo, pp. 2-3, § Rivers"  # the passage: where it starts, and both pages
    atacama = next(x for x in sentences(hit.text) if "Atacama" in x)  # as the extractive answer splits it
    assert hit.at(atacama).label() == "geo, p. 3, § Deserts"
    assert hit.matched("Which is the driest nonpolar desert in the world?").label() == "geo, p. 3, § Deserts"
