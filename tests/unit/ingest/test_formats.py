"""PDF, HTML (and saved pages), DOCX readers: text, title, page and heading sections, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from format_samples import HTML_PAGE, PDF_PAGES, write_docx, write_pdf

from memgraph_neo4j.ingest.readers import SUPPORTED_EXTENSIONS, ReaderError, read_path


def _section_of(doc, phrase: str):
    at = doc.text.index(phrase)
    return next(s for s in doc.sections if s.start <= at < s.end)


def test_pdf_pages_and_outline_headings(tmp_path: Path) -> None:
    pdf_file = write_pdf(tmp_path / "cheddar.pdf")
    [doc] = read_path(pdf_file)
    assert doc.title == "Cheddar Report" and doc.metadata == {"format": "pdf", "pages": 3}
    assert doc.source == str(pdf_file)
    for page, blocks in enumerate(PDF_PAGES, start=1):
        for _, heading, body in blocks:
            sentence = body.split(". ")[0]
            assert sentence in doc.text
            assert _section_of(doc, sentence).page == page
    assert _section_of(doc, "Cheddar is a hard cheese").heading == ("Introduction",)
    assert _section_of(doc, "The Romans may").heading == ("History",)
    assert _section_of(doc, "Monks at Glastonbury").heading == ("History", "Monastic era")
    assert _section_of(doc, "Cheddaring means").heading == ("Production",)
    # a heading's section starts at its title in the text, not at the top of the page
    monastic = next(s for s in doc.sections if s.heading == ("History", "Monastic era"))
    assert doc.text[monastic.start:].startswith("Monastic era")


def test_pdf_without_outline_has_pages_only(tmp_path: Path) -> None:
    [doc] = read_path(write_pdf(tmp_path / "plain.pdf", outline=False, title=""))
    assert doc.title == "plain"  # no title in the metadata: the file name
    assert [s.page for s in doc.sections] == [1, 2, 3] and all(s.heading == () for s in doc.sections)
    where = doc.provenance(doc.text.index("The Romans"), doc.text.index("Cheddaring") + 5)
    assert (where.page, where.page_end, where.heading) == (2, 3, None)


def test_pdf_errors_name_the_file_and_the_remedy(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ntruncated")
    with pytest.raises(ReaderError, match=r"broken\.pdf: not a readable PDF .*repair or re-save"):
        read_path(broken)
    locked = write_pdf(tmp_path / "locked.pdf", owner_password="owner", user_password="secret")
    with pytest.raises(ReaderError, match=r"locked\.pdf: the PDF is password-protected; decrypt it first"):
        read_path(locked)
    from fpdf import FPDF
    from fpdf.enums import EncryptionMethod

    # an owner password alone (printing/copying restrictions) opens with the empty user password; AES needs
    # the `cryptography` package (pypdf[crypto])
    [doc] = read_path(write_pdf(tmp_path / "restricted.pdf", owner_password="owner",
                                encryption_method=EncryptionMethod.AES_128))
    assert "Cheddaring means" in doc.text

    scanned = FPDF()
    for _ in range(2):
        scanned.add_page()
        scanned.rect(20, 20, 100, 150, style="F")  # an "image" of a page, no text layer
    scanned.output(str(tmp_path / "scan.pdf"))
    with pytest.raises(ReaderError, match=r"scan\.pdf: none of its 2 page\(s\) has a text layer.*run OCR"):
        read_path(tmp_path / "scan.pdf")


def test_html_main_content_keeps_headings_drops_boilerplate(tmp_path: Path) -> None:
    page = tmp_path / "cheddar.html"
    page.write_text(HTML_PAGE, encoding="utf-8")
    [doc] = read_path(page)
    assert doc.title == "Cheddar" and doc.metadata == {"format": "html"}
    for boilerplate in ("Home", "Recipes", "cookies", "Share on Facebook", "Related articles", "Ten wines",
                        "Copyright", "Privacy", "tracking", "Cheese Wiki"):
        assert boilerplate not in doc.text, boilerplate
    assert doc.text.startswith("Cheddar\n\nCheddar is a hard cheese from Somerset.\nIt is the most popular")
    assert "Curd is cut and heated.\nSlabs are stacked and turned." in doc.text
    assert "Age | Name\n3 months | Mild" in doc.text
    assert _section_of(doc, "The Romans").heading == ("Cheddar", "History")
    assert _section_of(doc, "Monks at").heading == ("Cheddar", "History", "Monastic era")
    assert _section_of(doc, "Slabs are").heading == ("Cheddar", "Production")
    assert all(s.page is None for s in doc.sections)


def test_html_without_main_encodings_and_saved_pages(tmp_path: Path) -> None:
    bare = HTML_PAGE.replace("<main>", "<div>").replace("</main>", "</div>").replace('charset="utf-8"',
                                                                                    'charset="windows-1252"')
    (tmp_path / "bare.htm").write_bytes(bare.replace("Somerset", "Somerset café").encode("cp1252"))
    [doc] = read_path(tmp_path / "bare.htm")
    assert "Somerset café" in doc.text and "Copyright" not in doc.text and "Home" not in doc.text
    assert _section_of(doc, "Monks at").heading == ("Cheddar", "History", "Monastic era")

    mhtml = ("From: <Saved by Blink>\r\nSubject: Cheddar\r\nMIME-Version: 1.0\r\n"
             'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n'
             "--B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
             + HTML_PAGE.replace("=", "=3D") + "\r\n--B--\r\n")
    (tmp_path / "saved.mhtml").write_text(mhtml, encoding="ascii")
    [saved] = read_path(tmp_path / "saved.mhtml")
    assert saved.text == read_path(_write(tmp_path / "same.html", HTML_PAGE))[0].text

    (tmp_path / "nav.html").write_text("<html><body><nav><a href='/'>Home</a></nav></body></html>")
    with pytest.raises(ReaderError, match="no text in .*nav.html"):  # nothing but boilerplate, like an empty .txt
        read_path(tmp_path / "nav.html")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_docx_headings_lists_and_tables(tmp_path: Path) -> None:
    [doc] = read_path(write_docx(tmp_path / "notes.docx"))
    assert doc.title == "Cheddar Notes" and doc.metadata == {"format": "docx"}
    assert doc.text == ("Notes taken at the dairy.\n\nHistory\n\nThe Romans may have brought the recipe to Britain."
                        "\n\nMonastic era\n\nMonks refined the process.\n\nGlastonbury Abbey\nWells Cathedral"
                        "\n\nProduction\n\nAge | Name\n3 months | Mild")
    assert _section_of(doc, "History").heading == ("History",)
    assert _section_of(doc, "Wells").heading == ("History", "Monastic era")
    assert _section_of(doc, "3 months").heading == ("Production",)
    assert doc.provenance(0, 10).heading is None  # before the first heading
    (tmp_path / "old.docx").write_bytes(b"\xd0\xcf\x11\xe0 an old binary .doc renamed")
    with pytest.raises(ReaderError, match=r"old\.docx: not a readable DOCX file .*save it again as \.docx"):
        read_path(tmp_path / "old.docx")


def test_directory_picks_up_new_formats_and_skips_saved_page_assets(tmp_path: Path) -> None:
    write_pdf(tmp_path / "a.pdf")
    write_docx(tmp_path / "b.docx")
    _write(tmp_path / "c.html", HTML_PAGE)
    (tmp_path / "c_files").mkdir()
    _write(tmp_path / "c_files" / "ad-frame.html", "<html><body><p>Buy our cheese now.</p></body></html>")
    _write(tmp_path / "d.md", "# Notes\n\nSome text.")
    (tmp_path / "e.xlsx").write_bytes(b"PK")
    docs = read_path(tmp_path)
    assert [(Path(d.source).name, d.title) for d in docs] == [
        ("a.pdf", "Cheddar Report"), ("b.docx", "Cheddar Notes"), ("c.html", "Cheddar"), ("d.md", "Notes")]
    with pytest.raises(ReaderError, match=r"unsupported file type '\.xlsx'.*supported: .*\.docx, \.htm, \.html"):
        read_path(tmp_path / "e.xlsx")
    assert {".pdf", ".docx", ".html", ".htm", ".mhtml"} <= SUPPORTED_EXTENSIONS
