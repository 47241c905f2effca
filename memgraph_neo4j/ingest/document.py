"""The Document every reader returns, and where its text came from: sections with their page and heading.

A reader that knows pages (PDF) or headings (HTML, DOCX, Markdown, PDF outlines) splits the text into
sections with character offsets; ``Document.provenance(start, end)`` maps a passage's offsets back to
its pages and heading, which the Passage keeps so a citation can point at "p. 3" or a section.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from memgraph_neo4j.memory.normalize import MAX_INDEX_KEY_BYTES, content_hash

__all__ = ["HEADING_SEPARATOR", "Document", "Location", "Provenance", "ReaderError", "Section", "TextBuilder",
           "sections_from"]

HEADING_SEPARATOR = " > "  # joins a heading path into the Passage's `heading` property


class ReaderError(ValueError):
    """A file could not be read as documents (unsupported, malformed, missing text)."""


class Section(BaseModel):
    """``text[start:end]`` of a document lies on one page under one heading path (outermost first)."""

    model_config = ConfigDict(frozen=True)

    start: int
    end: int
    page: int | None = None  # 1-based physical page
    heading: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Location:
    """From ``offset`` (into a passage) on, the passage lies on ``page`` under ``heading``."""

    offset: int
    page: int | None = None
    heading: str | None = None


@dataclass(frozen=True, slots=True)
class Provenance:
    page: int | None = None  # first and last page the passage touches
    page_end: int | None = None
    heading: str | None = None  # the heading path where the passage starts


class Document(BaseModel):
    """A source document; ``id`` defaults to the content hash of ``text`` (dedup key), so sections,
    which only describe the text, never change it."""

    id: str = ""
    title: str = ""
    text: str
    source: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    sections: list[Section] = Field(default_factory=list)  # ordered, non-overlapping; may leave gaps

    @model_validator(mode="after")
    def _default_id(self) -> Document:
        if not self.id:
            self.id = content_hash(self.text)
        if (size := len(self.id.encode("utf-8"))) > MAX_INDEX_KEY_BYTES:  # the document key's index entry
            raise ValueError(f"document id of {size:,} bytes: at most {MAX_INDEX_KEY_BYTES:,} (an index key); "
                             f"give a shorter id, or none to use the content hash")
        previous_end = 0
        for s in self.sections:
            if not previous_end <= s.start < s.end <= len(self.text):
                raise ValueError(f"section [{s.start}, {s.end}) is out of order or outside the text "
                                 f"({len(self.text)} characters)")
            previous_end = s.end
        return self

    def provenance(self, start: int, end: int) -> Provenance:
        """Pages and heading of ``text[start:end]``: the first and last page it touches, and the heading
        path in force where it starts (a label names where the passage begins, not the section covering
        most of it; ``locations`` tells where each later part lies)."""
        touched = self._touched(start, end)
        if not touched:
            return Provenance()
        pages = [s.page for s in touched if s.page is not None]
        return Provenance(page=pages[0] if pages else None, page_end=pages[-1] if pages else None,
                          heading=HEADING_SEPARATOR.join(touched[0].heading) or None)

    def locations(self, start: int, end: int) -> list[Location]:
        """Where ``text[start:end]`` changes page or heading: each change's offset into the passage, with
        the page and heading path in force from there (the first at offset 0; empty without sections)."""
        out: list[Location] = []
        for s in self._touched(start, end):
            here = Location(max(s.start - start, 0), s.page, HEADING_SEPARATOR.join(s.heading) or None)
            if not out or (out[-1].page, out[-1].heading) != (here.page, here.heading):
                out.append(here)
        return out

    def _touched(self, start: int, end: int) -> list[Section]:
        """The sections ``text[start:end]`` overlaps, in order; in a gap, the section before it."""
        if not self.sections:
            return []
        first = max(bisect_right(self.sections, start, key=_section_start) - 1, 0)
        touched = []
        for s in self.sections[first:]:
            if s.start >= end:
                break
            if s.end > start:
                touched.append(s)
        return touched or [self.sections[first]]


def _section_start(section: Section) -> int:
    return section.start


def sections_from(length: int, pages: list[tuple[int, int]] = (),
                  headings: list[tuple[int, tuple[str, ...]]] = ()) -> list[Section]:
    """Sections of a text of ``length`` characters from two independent sets of breakpoints:
    ``pages`` (offset where page n starts, n) and ``headings`` (offset where a heading path starts)."""
    if not pages and not headings:
        return []
    points = sorted({0, *(o for o, _ in pages), *(o for o, _ in headings)})
    points = [p for p in points if 0 <= p < length] + [length]
    page_at = sorted(pages)
    heading_at = sorted(headings, key=lambda h: h[0])
    sections, pi, hi = [], -1, -1
    page, heading = None, ()
    for start, end in zip(points, points[1:]):
        while pi + 1 < len(page_at) and page_at[pi + 1][0] <= start:
            pi += 1
            page = page_at[pi][1]
        while hi + 1 < len(heading_at) and heading_at[hi + 1][0] <= start:
            hi += 1
            heading = heading_at[hi][1]
        if start < end:
            sections.append(Section(start=start, end=end, page=page, heading=heading))
    return sections


class TextBuilder:
    """Assembles a document's text block by block, tracking the heading path of each offset."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._path: list[tuple[int, str]] = []  # (level, heading text), outermost first
        self._last_item = False
        self.headings: list[tuple[int, tuple[str, ...]]] = []

    def _append(self, text: str, separator: str) -> int:
        if self._parts:
            self._parts.append(separator)
            self._length += len(separator)
        offset = self._length
        self._parts.append(text)
        self._length += len(text)
        return offset

    def heading(self, level: int, text: str) -> None:
        """A heading opens a section: it and everything up to the next heading of the same or a
        higher level lie under the path ending in it."""
        text = " ".join(text.split())
        if not text:
            return
        while self._path and self._path[-1][0] >= level:
            self._path.pop()
        self._path.append((level, text))
        offset = self._append(text, "\n\n")
        self._last_item = False
        self.headings.append((offset, tuple(t for _, t in self._path)))

    def block(self, text: str, item: bool = False) -> None:
        """A paragraph, or a list item or table row (``item``): items in a row are one line apart."""
        text = text.strip()
        if text:
            self._append(text, "\n" if item and self._last_item else "\n\n")
            self._last_item = item

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def sections(self) -> list[Section]:
        return sections_from(self._length, headings=self.headings)
