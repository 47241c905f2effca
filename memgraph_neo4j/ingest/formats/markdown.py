"""Heading paths of a Markdown text (ATX ``#`` headings outside fenced code blocks)."""

from __future__ import annotations

import re

from memgraph_neo4j.ingest.document import Section, sections_from

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def markdown_sections(text: str) -> list[Section]:
    """One section per heading, from the heading line to the next heading (none without headings)."""
    headings: list[tuple[int, tuple[str, ...]]] = []
    path: list[tuple[int, str]] = []
    fence: str | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        if m := _FENCE.match(stripped):
            marker = m.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
        elif fence is None and (m := _HEADING.match(stripped)):
            level, title = len(m.group(1)), " ".join(m.group(2).split())
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, title))
            headings.append((offset, tuple(t for _, t in path)))
        offset += len(line)
    return sections_from(len(text), headings=headings)
