"""Issue 27, "Facts you can trust", through the whole ingest (offline extractor, real Neo4j):
- attribution within scope: a pronoun or "the company" resolves inside its own section, never across a
  heading, in Markdown, HTML and DOCX alike (tests/fixtures/sections); unresolved, no fact;
- labels from where the evidence lies: a quoted sentence is labelled by its own page and heading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memgraph_neo4j.api import MemoryGraph

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sections"


def _docx(path: Path) -> Path:
    """notes.md as a Word document: "#" lines become Heading 1/2 paragraphs."""
    import docx

    document = docx.Document()
    for line in (FIXTURES / "notes.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"(#+) (.*)", line):
            document.add_heading(m[2], len(m[1]))
        elif line.strip():
            document.add_paragraph(line)
    document.save(str(path))
    return path


@pytest.fixture
def memory(store, space, minilm):
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline") as m:
        yield m


@pytest.mark.parametrize("form", ["md", "html", "docx"])
def test_references_never_cross_a_heading(memory, test_store, space, tmp_path, form):
    path = _docx(tmp_path / "notes.docx") if form == "docx" else FIXTURES / f"notes.{form}"
    report = memory.ingest([path], progress=False)
    assert report.passages == 1 and report.failed == 0  # one passage holds every section: scopes matter
    facts = {(r["head"], r["relation"], r["tail"]) for r in test_store.read("facts_by_relation", space=space)}
    assert ("Grace Hopper", "born_in", "New York City") in facts
    assert not [f for f in facts if f[2] == "New York City" and f[0] != "Grace Hopper"]  # not Ada Lovelace's
    assert not [f for f in facts if f[2] in ("Arlington", "Cupertino")]  # "She", "The company": no one there
    if memory.extractor.model.startswith("spacy"):
        assert ("Microsoft", "founded_by", "Bill Gates") in facts  # "the company" of its own section


def test_a_quote_is_labelled_by_the_heading_it_lies_under(memory, tmp_path):
    # a Hedy Lamarr sentence in a passage that starts (and mostly lies) under "Nikola Tesla"
    text = ("# Inventors\n\n## Nikola Tesla\n\n" + "Nikola Tesla designed the alternating current motor. " * 6
            + "\n\n## Hedy Lamarr\n\nHedy Lamarr co-invented frequency hopping with George Antheil in 1941.\n")
    (tmp_path / "inventors.md").write_text(text, encoding="utf-8")
    memory.ingest([tmp_path / "inventors.md"], progress=False)
    answer = memory.answer_extractive("Who co-invented frequency hopping?")
    [hit] = answer.evidence.passages
    assert hit.label() == "Inventors"  # the passage: where it starts (the document's title heading)
    quote = next(q for q in answer.quotes if q.text.startswith("Hedy Lamarr"))
    assert quote.source == "Inventors, § Hedy Lamarr"


def test_a_quote_on_the_next_page_is_labelled_by_its_page(memory, tmp_path):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("geo")
    for title, body in [("Mountains", "The Andes run along the west coast of South America. " * 8),
                        ("Rivers", "The Amazon carries more water than any other river on Earth. " * 8),
                        ("Deserts", "The Atacama Desert in Chile is the driest nonpolar desert in the world.")]:
        pdf.add_page()
        pdf.start_section(title)
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(text=title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, body.strip())
    pdf.output(str(tmp_path / "geo.pdf"))
    memory.ingest([tmp_path / "geo.pdf"], progress=False)
    answer = memory.answer_extractive("Which is the driest nonpolar desert in the world?")
    hit = next(h for h in answer.evidence.passages if "Atacama" in (h.text or ""))
    quote = next(q for q in answer.quotes if "Atacama" in q.text)
    assert hit.id == quote.passage_id and hit.page < hit.page_end == 3 and hit.heading != "Deserts"
    assert hit.label() == f"geo, pp. {hit.page}-3, § {hit.heading}"  # the passage: where it starts
    assert quote.source == "geo, p. 3, § Deserts"
