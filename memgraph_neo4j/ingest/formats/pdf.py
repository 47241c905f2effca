"""PDF: the text layer page by page (pypdf), page numbers and the outline's headings as sections."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.document import Document, ReaderError, sections_from

PAGE_SEPARATOR = "\n\n"


def read_pdf(path: Path) -> Document:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError

    log = logging.getLogger("pypdf")
    if log.level == logging.NOTSET:  # pypdf warns on every slightly malformed object; a user's setting wins
        log.setLevel(logging.ERROR)
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):  # an empty user password opens most "protected" PDFs
            raise ReaderError(f"{path}: the PDF is password-protected; decrypt it first "
                              f"(e.g. qpdf --decrypt --password=PASSWORD in.pdf out.pdf) and ingest the copy")
        texts = [_page_text(page) for page in reader.pages]
        outline = _outline(reader)
        info = reader.metadata
        title = str(info.title).strip() if info is not None and info.title else ""
    except ReaderError:
        raise
    except (FileNotDecryptedError, DependencyError) as exc:
        raise ReaderError(f"{path}: cannot decrypt the PDF ({_one_line(exc)}); "
                          f"save an unencrypted copy and ingest that") from None
    except Exception as exc:  # pypdf raises many kinds on a damaged file; the user needs one line
        raise ReaderError(f"{path}: not a readable PDF ({type(exc).__name__}: {_one_line(exc)}); "
                          f"repair or re-save it (e.g. qpdf in.pdf out.pdf) and ingest the copy") from None
    if not any(texts):
        raise ReaderError(f"{path}: none of its {len(texts)} page(s) has a text layer (a scanned PDF?); "
                          f"run OCR first (e.g. ocrmypdf in.pdf out.pdf) and ingest the result")
    pages, parts, offset = [], [], 0
    for number, text in enumerate(texts, start=1):
        if not text:
            continue  # an image-only page: nothing to cite
        if parts:
            offset += len(PAGE_SEPARATOR)
        pages.append((offset, number))
        parts.append(text)
        offset += len(text)
    full = PAGE_SEPARATOR.join(parts)
    headings = _place_headings(full, pages, outline)
    return Document(title=title or path.stem, text=full, source=str(path),
                    metadata={"format": "pdf", "pages": len(texts)},
                    sections=sections_from(len(full), pages, headings))


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _page_text(page: Any) -> str:
    lines = (line.rstrip() for line in (page.extract_text() or "").replace("\x00", "").splitlines())
    return "\n".join(lines).strip()


def _outline(reader: Any) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) of every outline (bookmark) entry, in order; [] when broken or absent."""
    found: list[tuple[int, str, int]] = []

    def walk(items: list[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:  # a dangling bookmark only loses its heading
                continue
            title = " ".join(str(getattr(item, "title", "") or "").split())
            if title and page is not None and page >= 0:
                found.append((level, title, page + 1))

    try:
        walk(reader.outline, 0)
    except Exception:  # a malformed outline must not stop the text from being read
        return []
    return found


def _place_headings(text: str, pages: list[tuple[int, int]], outline: list[tuple[int, str, int]]
                    ) -> list[tuple[int, tuple[str, ...]]]:
    """Each bookmark starts where its title appears on its page (else at the top of that page)."""
    page_start = {number: offset for offset, number in pages}
    page_end = {number: end for (_, number), (end, _) in zip(pages, pages[1:] + [(len(text), 0)])}
    headings, path, cursor = [], [], 0
    for level, title, number in outline:
        if number not in page_start:
            continue
        start = max(page_start[number], cursor)
        found = text.find(title, start, page_end[number])
        offset = found if found >= 0 else page_start[number]
        if offset < cursor:
            continue  # the outline runs backwards here: keep the sections in text order
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, title))
        headings.append((offset, tuple(t for _, t in path)))
        cursor = offset
    return headings
