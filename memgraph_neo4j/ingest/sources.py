"""What `MemoryGraph.ingest` accepts (files, folders, texts, Documents, or an iterable of them) as a lazy
stream of Documents: files are read as the pipeline pulls them, so a large corpus is never held whole.

A string is a path when it names an existing file or folder, or looks like one (one line, ending in a
supported extension, or starting with / ./ ../ ~ and holding no space): such a string that names nothing
is a FileNotFoundError, not a document holding the path. Anything else is a text; a text or Document
without text is refused. To ingest a text that looks like a path, pass `Document(text=...)`."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.readers import SUPPORTED_EXTENSIONS, Document, EmptyFileError, check_path, iter_path

Sources = Iterable[str | Path | Document] | str | Path | Document

_PATH_STARTS = ("/", "./", "../", "~", os.sep)
_MAX_PATH_CHARS = 4096  # PATH_MAX: a longer string is a text


def documents_of(sources: Sources) -> Iterator[Document]:
    """The Documents of the sources, one at a time. Named paths and the kinds of a list's sources are
    checked first, so a missing file, a pipe or an empty text fails before anything is written."""
    if isinstance(sources, (str, Path, Document)):
        sources = [sources]
    if isinstance(sources, (list, tuple)):
        return _read([_kind(source, i) for i, source in enumerate(sources)])
    return _read(_kind(source, i) for i, source in enumerate(sources))


def _kind(source: object, index: int) -> tuple[str, Any]:
    if isinstance(source, Document):
        _has_text(source.text, index, "Document")
        return "document", source
    if isinstance(source, str) and not source.strip():
        _has_text(source, index, "text")
    if isinstance(source, Path) or (isinstance(source, str) and _is_a_path(source)):
        path = Path(source).expanduser()
        try:
            check_path(path)
        except FileNotFoundError as exc:
            hint = " (to ingest this string as text, pass Document(text=...))" if isinstance(source, str) else ""
            raise FileNotFoundError(f"{exc}{hint}") from None
        return "path", path
    if isinstance(source, str):
        return "text", source
    raise TypeError(f"cannot ingest {type(source).__name__}: give paths, texts or Document objects")


def _has_text(text: str, index: int, what: str) -> None:
    if not text.strip():
        raise EmptyFileError(f"no text in source {index + 1} (a {what}): it is empty or only whitespace; "
                             "nothing to ingest")


def _is_a_path(text: str) -> bool:
    if "\n" in text or len(text) > _MAX_PATH_CHARS:
        return False
    try:
        if Path(text).expanduser().exists():
            return True
    except (OSError, ValueError, RuntimeError):  # a NUL in it, or ~user unknown: a text
        return False
    text = text.strip()
    return (Path(text).suffix.lower() in SUPPORTED_EXTENSIONS
            or (text.startswith(_PATH_STARTS) and not any(c.isspace() for c in text)))


def _read(sources: Iterable[tuple[str, Any]]) -> Iterator[Document]:
    for kind, source in sources:
        if kind == "document":
            yield source
        elif kind == "path":
            yield from iter_path(source)
        else:
            yield Document(text=source, source="text")
