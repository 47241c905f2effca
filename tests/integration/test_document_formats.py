"""A PDF through the whole ingest (offline extractor): Passage nodes keep their pages and headings,
search hits cite them, and ingesting the same file again writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgraph_neo4j.api import MemoryGraph

CHAPTERS = [  # one page each: (outline title, body)
    ("Origins", "Ada Lovelace was born in London in 1815. Her mother Anne Isabella Milbanke raised her. " * 8),
    ("The Analytical Engine", "Charles Babbage designed the Analytical Engine in London. Ada Lovelace "
                              "translated an article about it by Luigi Menabrea and added notes. " * 8),
    ("Legacy", "The programming language Ada was named after Ada Lovelace by the United States Department "
               "of Defense in 1980. " * 8),
]


def _pdf(path: Path) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("Ada Lovelace")
    for title, body in CHAPTERS:
        pdf.add_page()
        pdf.start_section(title)
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(text=title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, body.strip())
    pdf.output(str(path))
    return path


@pytest.fixture
def memory(store, space, minilm):
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline") as m:
        yield m


def test_pdf_passages_keep_pages_and_a_second_ingest_writes_nothing(memory, test_store, space, tmp_path):
    pdf = _pdf(tmp_path / "ada.pdf")
    first = memory.ingest([pdf], progress=False)
    assert first.documents == 1 and first.passages == first.passages_new >= 3 and first.failed == 0
    rows = test_store.read("passage_provenance", space=space)
    assert len(rows) == first.passages
    assert all(1 <= r["page"] <= r["page_end"] <= 3 for r in rows)
    assert rows[0]["page"] == 1 and rows[0]["heading"] == "Origins" and rows[-1]["page_end"] == 3
    assert {r["heading"] for r in rows} == {"Origins", "The Analytical Engine", "Legacy"}
    # every page is cited by some passage, each passage under the chapter of its first page or the next
    assert {p for r in rows for p in range(r["page"], r["page_end"] + 1)} == {1, 2, 3}

    hit = memory.search("Who named a programming language after Ada Lovelace?", method="dense", top_k=1).passages[0]
    stored = next(r for r in rows if r["id"] == hit.id)
    assert (hit.name, hit.page, hit.page_end, hit.heading) == ("Ada Lovelace", stored["page"], stored["page_end"],
                                                              stored["heading"])
    assert hit.page == 3 and hit.label().startswith("Ada Lovelace, p") and "§ Legacy" in hit.label()

    stats = memory.stats()
    again = memory.ingest([pdf], progress=False)
    assert (again.passages, again.passages_new, again.extracted, again.facts) == (first.passages, 0, 0, 0)
    assert test_store.read("passage_provenance", space=space) == rows  # same ids, provenance and created_at
    assert memory.stats() == stats
