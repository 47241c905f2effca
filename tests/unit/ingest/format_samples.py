"""Small documents in each rich format, written by the tests themselves (fpdf2, python-docx); shared by
the reader and provenance tests of this folder."""

from __future__ import annotations

from pathlib import Path

# (heading level, heading, body) per PDF page; level 1 opens a sub-section on the same page
PDF_PAGES = [
    [(0, "Introduction", "Cheddar is a hard cheese that originated in the English village of Cheddar. " * 6)],
    [(0, "History", "The Romans may have brought the recipe to Britain from the Cantal region. " * 4),
     (1, "Monastic era", "Monks at Glastonbury Abbey refined the process in the twelfth century. " * 4)],
    [(0, "Production", "Cheddaring means stacking the curd slabs to expel whey and develop texture. " * 6)],
]

HTML_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Cheddar | Cheese Wiki</title></head>
<body>
<header><a href="/">Cheese Wiki</a><nav><ul><li><a href="/a">Home</a></li><li><a href="/b">Recipes</a></li>
<li><a href="/c">Shop</a></li></ul></nav></header>
<div class="cookie-banner">We use cookies to give you the best experience. Accept all cookies?</div>
<main>
<h1>Cheddar</h1>
<p>Cheddar is a <b>hard</b> cheese from Somerset.<br>It is the most popular cheese in Britain.</p>
<h2>History</h2>
<p>The Romans may have brought the recipe to Britain.</p>
<h3>Monastic era</h3>
<p>Monks at Glastonbury Abbey refined the process.</p>
<div class="share-links"><a href="/fb">Share on Facebook</a> <a href="/tw">Tweet</a></div>
<h2>Production</h2>
<ul><li>Curd is cut and heated.</li><li>Slabs are stacked and turned.</li></ul>
<table><tr><th>Age</th><th>Name</th></tr><tr><td>3 months</td><td>Mild</td></tr></table>
</main>
<aside><h2>Related articles</h2><a href="/x">Ten wines to pair with cheese</a></aside>
<footer><p>Copyright 2025 Cheese Wiki. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
<script>console.log("tracking")</script>
</body></html>
"""


def write_pdf(path: Path, pages: list[list[tuple[int, str, str]]] = PDF_PAGES, title: str = "Cheddar Report",
              outline: bool = True, **encryption: object) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title(title)
    for page in pages:
        pdf.add_page()
        for level, heading, body in page:
            if outline:
                pdf.start_section(heading, level=level)
            pdf.set_font("Helvetica", "B", 16 - 2 * level)
            pdf.cell(text=heading, new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("Helvetica", size=11)
            pdf.multi_cell(0, 6, body.strip())
    if encryption:
        pdf.set_encryption(**encryption)
    pdf.output(str(path))
    return path


def write_docx(path: Path) -> Path:
    import docx

    document = docx.Document()
    document.core_properties.title = "Cheddar Notes"
    document.add_paragraph("Notes taken at the dairy.")
    document.add_heading("History", 1)
    document.add_paragraph("The Romans may have brought the recipe to Britain.")
    document.add_heading("Monastic era", 2)
    document.add_paragraph("Monks refined the process.")
    document.add_paragraph("Glastonbury Abbey", style="List Bullet")
    document.add_paragraph("Wells Cathedral", style="List Bullet")
    document.add_heading("Production", 1)
    table = document.add_table(rows=2, cols=2)
    for (row, col), text in {(0, 0): "Age", (0, 1): "Name", (1, 0): "3 months", (1, 1): "Mild"}.items():
        table.cell(row, col).text = text
    document.save(str(path))
    return path
