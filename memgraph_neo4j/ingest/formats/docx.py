"""DOCX (python-docx): paragraphs and tables in body order, headings as sections.

A paragraph is a heading when its style (or a style it is based on) carries an outline level, as
Word's built-in and most custom heading styles do, or is named "Heading N". Word documents have no
fixed pages (Word lays them out when it opens the file), so DOCX passages carry headings only.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.document import Document, ReaderError, TextBuilder

_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def read_docx(path: Path) -> Document | None:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ReaderError(f"{path}: not a readable DOCX file ({type(exc).__name__}: {exc}); an old .doc or a "
                          f"damaged file? save it again as .docx from the word processor") from None
    builder = TextBuilder()
    title = (document.core_properties.title or "").strip()
    first_heading = ""
    for item in document.iter_inner_content():
        if not hasattr(item, "rows"):  # a paragraph
            text = item.text.strip()
            level = _heading_level(item)
            style = (item.style.name or "") if item.style is not None else ""
            if level is not None:
                builder.heading(level, text)
                first_heading = first_heading or text
            elif style == "Title":
                title = title or text
                builder.block(text)
            else:
                builder.block(text, item=style.startswith("List"))
        else:
            for row in item.rows:
                cells = _unique(c.text.strip() for c in row.cells)  # a merged cell repeats in each column
                builder.block(" | ".join(c for c in cells if c), item=True)
    if not builder.text.strip():
        return None
    return Document(title=title or first_heading or path.stem, text=builder.text, source=str(path),
                    metadata={"format": "docx"}, sections=builder.sections())


def _heading_level(paragraph: Any) -> int | None:
    """1 for a top-level heading; None for body text."""
    p_pr = paragraph._p.pPr
    if (level := _outline_level(p_pr)) is not None:
        return level
    style = paragraph.style
    while style is not None:
        if (level := _outline_level(style.element.pPr)) is not None:
            return level
        if m := _HEADING_NAME.match(style.name or ""):
            return int(m.group(1))
        style = style.base_style
    return None


def _outline_level(p_pr: Any) -> int | None:
    node = p_pr.find(f"{_W}outlineLvl") if p_pr is not None else None
    if node is None:
        return None
    value = int(node.get(f"{_W}val", "9"))
    return value + 1 if value < 9 else None  # level 9 is Word's "body text"


def _unique(cells: Any) -> list[str]:
    out: list[str] = []
    for cell in cells:
        if not out or out[-1] != cell:
            out.append(cell)
    return out
