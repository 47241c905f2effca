"""What `MemoryGraph.ingest` accepts (files, folders, texts, Documents, or an iterable of them) as a lazy
stream of Documents: files are read as the pipeline pulls them, so a large corpus is never held whole."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.readers import Document, iter_path

Sources = Iterable[str | Path | Document] | str | Path | Document


def documents_of(sources: Sources) -> Iterator[Document]:
    """The Documents of the sources, one at a time. Named paths and the kinds of a list's sources are
    checked first, so a missing file or a source of the wrong kind fails before anything is written."""
    if isinstance(sources, (str, Path, Document)):
        sources = [sources]
    if isinstance(sources, (list, tuple)):
        kinds = [_kind(source) for source in sources]
        return _read(zip(kinds, sources))
    return _read((_kind(source), source) for source in sources)


def _kind(source: object) -> str:
    if isinstance(source, Document):
        return "document"
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and _names_a_file(source)):
        if not Path(source).exists():
            raise FileNotFoundError(f"no such file or directory: {source}")
        return "path"
    if isinstance(source, str):
        return "text"
    raise TypeError(f"cannot ingest {type(source).__name__}: give paths, texts or Document objects")


def _names_a_file(text: str) -> bool:
    try:
        return Path(text).exists()
    except (OSError, ValueError):  # longer than a file name can be, or a NUL in it: a text
        return False


def _read(sources: Iterable[tuple[str, Any]]) -> Iterator[Document]:
    for kind, source in sources:
        if kind == "document":
            yield source
        elif kind == "path":
            yield from iter_path(source)
        else:
            yield Document(text=source, source="text")
