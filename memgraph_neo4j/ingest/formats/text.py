"""Plain text, Markdown and JSON lines read as a stream, and the checks every text file gets first.

A text file is decoded block by block, never whole: one up to ``PART_CHARS`` characters is one
Document, exactly as before; a larger one becomes several Documents ("parts") of at most about
``PART_CHARS`` characters, cut at a line break (or, in a single huge line, at a space), so reading and
chunking a 50 MB file holds one part at a time. A run of more than ``LONG_RUN`` characters without
whitespace is not prose (base64, minified data): it is dropped, with a warning, instead of becoming one
giant passage. Binary files and text that is not UTF-8 are refused with one line saying what to do.
"""

from __future__ import annotations

import codecs
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.document import Document, ReaderError, Section
from memgraph_neo4j.ingest.formats.markdown import markdown_sections

__all__ = ["LONG_RUN", "PART_CHARS", "EmptyFileError", "check_text_file", "iter_jsonl", "iter_text_parts"]

log = logging.getLogger("memgraph_neo4j.ingest")

PART_CHARS = 1_000_000  # characters per Document of a large text file
LONG_RUN = 1_000  # longer runs without whitespace are dropped
_BLOCK = 1 << 20  # bytes decoded at a time
_SNIFF = 8192
_LONG = re.compile(r"\S{%d,}" % (LONG_RUN + 1))
_RUN_START = re.compile(r"^\S+")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


class EmptyFileError(ReaderError):
    """A file that holds no text to ingest (a folder skips it; a file named on its own is an error)."""


def check_text_file(path: Path) -> None:
    """Refuse a binary file before decoding it: NUL bytes never occur in UTF-8 text."""
    with path.open("rb") as f:
        head = f.read(_SNIFF)
    if b"\x00" in head:
        raise ReaderError(f"{path}: a binary file, not text (NUL byte at offset {head.index(0)}); give UTF-8 text, "
                          "Markdown, JSON, PDF, DOCX or HTML, or convert it (UTF-16 text: iconv -f utf-16 -t utf-8)")


def _not_utf8(path: Path, exc: UnicodeDecodeError, at: int) -> ReaderError:
    return ReaderError(f"{path}: not valid UTF-8 text ({exc.reason} at byte {at}); convert it to UTF-8 first, "
                       f"e.g. iconv -f latin1 -t utf-8 {path.name} > {path.stem}.utf8{path.suffix}")


def _decoded_blocks(path: Path) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")  # -sig: drop a BOM some editors add
    position = 0
    with path.open("rb") as f:
        while True:
            block = f.read(_BLOCK)
            pending = len(decoder.getstate()[0])
            try:
                text = decoder.decode(block, final=not block)
            except UnicodeDecodeError as exc:
                raise _not_utf8(path, exc, max(position - pending + exc.start, 0)) from None
            position += len(block)
            if text:
                yield text
            if not block:
                return


def _raw_parts(path: Path) -> Iterator[str]:
    """The decoded text in parts of at most about PART_CHARS characters, cut at a line break or a space."""
    pending = ""
    skip_run = False  # the previous part was cut inside a run without whitespace: drop its rest
    for text in _decoded_blocks(path):
        pending += text
        if skip_run:  # the rest of a run a hard cut went through
            pending = _RUN_START.sub("", pending)
            skip_run = not pending
        while len(pending) > PART_CHARS:
            cut = pending.rfind("\n", 0, PART_CHARS) + 1
            if cut <= PART_CHARS // 2:  # one huge line: cut at its last space
                cut = max(cut, pending.rfind(" ", 0, PART_CHARS) + 1, pending.rfind("\t", 0, PART_CHARS) + 1)
            hard = cut <= 0
            if hard:
                cut = PART_CHARS
            part, pending = pending[:cut], pending[cut:]
            if hard:
                pending = _RUN_START.sub("", pending)
                skip_run = not pending
            yield part
    if pending:
        yield pending


def _drop_long_runs(path: Path, text: str) -> str:
    runs = _LONG.findall(text)
    if not runs:
        return text
    log.warning("%s: dropped %d run(s) of %s characters without whitespace (encoded data, not prose)",
                path, len(runs), ", ".join(f"{len(r):,}" for r in runs[:3]) + (" ..." if len(runs) > 3 else ""))
    return _LONG.sub("", text)


def iter_text_parts(path: Path, markdown: bool) -> Iterator[Document]:
    """One Document per part (one for a file up to PART_CHARS characters); EmptyFileError if none has text."""
    check_text_file(path)
    title, previous, count, dropped = path.stem, None, 0, False
    for raw in _raw_parts(path):
        text = _drop_long_runs(path, raw)
        dropped |= text != raw
        if not text.strip():
            continue
        if count == 0 and markdown and (m := _MD_HEADING.search(text)):
            title = m.group(1)
        sections: list[Section] = markdown_sections(text) if markdown else []
        if previous is not None:
            previous.metadata["part"] = count
            yield previous
        count += 1
        previous = Document(title=title, text=text, source=str(path), sections=sections)
    if previous is None:
        why = ("the file is empty" if path.stat().st_size == 0 else
               "it holds only runs of characters without whitespace (encoded data?)" if dropped else
               "it holds only whitespace")
        raise EmptyFileError(f"no text in {path}: {why}; nothing to ingest")
    if count > 1:
        previous.metadata["part"] = count
    yield previous


def iter_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, record) of every line that parses; a malformed line is skipped with a warning that
    names it, and the others are read. ReaderError when no line parses."""
    check_text_file(path)
    good = bad = 0
    with path.open("rb") as f:
        for line_no, raw in enumerate(f, start=1):
            try:
                line = raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise ReaderError(f"{path}: line {line_no} is not valid UTF-8 ({exc.reason}); convert the file "
                                  "to UTF-8 first (iconv -f latin1 -t utf-8)") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                bad += 1
                log.warning("%s: line %d skipped: invalid JSON (%s); the other lines are read", path, line_no,
                            exc.msg)
                continue
            good += 1
            yield line_no, record
    if bad and not good:
        raise ReaderError(f"{path}: no line is valid JSON ({bad} malformed); expected one JSON object per line")
