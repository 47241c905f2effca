"""Document readers: plain text, Markdown, JSON/JSONL records, PDF, HTML and saved web pages, DOCX,
directories and benchmark corpora.

Benchmark corpora (MuSiQue / HotpotQA as distributed by HippoRAG) are already split into
passages, so their documents carry ``metadata['single_passage'] = True``: the ingest pipeline
must turn each into exactly one Passage instead of re-chunking it. Readers of paged or structured
formats fill ``Document.sections`` (page, heading path) for the passages' provenance.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from memgraph_neo4j.ingest.document import Document, ReaderError, Section
from memgraph_neo4j.ingest.formats.text import EmptyFileError, check_text_file, iter_jsonl, iter_text_parts

__all__ = [
    "DEFAULT_TEXT_FIELDS",
    "SUPPORTED_EXTENSIONS",
    "Document",
    "EmptyFileError",
    "ReaderError",
    "Section",
    "check_path",
    "folder_files",
    "iter_path",
    "read_hotpotqa_corpus",
    "read_musique_corpus",
    "read_path",
]

DEFAULT_TEXT_FIELDS: tuple[str, ...] = ("text", "content", "passage")
_HTML_EXTENSIONS = frozenset({".html", ".htm", ".xhtml", ".mht", ".mhtml"})
SUPPORTED_EXTENSIONS = frozenset({".txt", ".md", ".markdown", ".json", ".jsonl", ".pdf", ".docx", *_HTML_EXTENSIONS})
_PASSAGE_KEYS = frozenset({"title", "text", "idx", "id"})  # HippoRAG corpus.json record keys

TextFields = str | Sequence[str] | None


def read_path(path: str | Path, text_field: TextFields = None) -> list[Document]:
    """Read a file (see SUPPORTED_EXTENSIONS) or recurse into a directory: ``list(iter_path(...))``.

    ``text_field``: the JSON field holding the text (default: first of text/content/passage).
    JSON files in the MuSiQue or HotpotQA corpus layout are detected automatically.
    """
    return list(iter_path(path, text_field))


def iter_path(path: str | Path, text_field: TextFields = None) -> Iterator[Document]:
    """The Documents of a file or folder, one at a time: text, Markdown and JSON lines are streamed, so a
    large file is never held whole (formats/text.py). A file named on its own that holds no text raises
    EmptyFileError ("no text in ..."); a folder skips such files, and raises it when none has text."""
    path = Path(path)
    check_path(path)
    if not path.is_dir():
        yield from _file_documents(path, text_field)
        return
    found = False
    for child in folder_files(path):
        try:
            for doc in _file_documents(child, text_field):
                found = True
                yield doc
        except EmptyFileError:
            continue
    if not found:
        raise EmptyFileError(f"no text in {path}: no file in it has text to ingest (read: "
                             f"{', '.join(sorted(SUPPORTED_EXTENSIONS))})")


def folder_files(path: Path) -> Iterator[Path]:
    """The files of a folder that ingest reads, in order: supported, not hidden, not a saved page's asset."""
    for child in sorted(path.rglob("*")):
        rel = child.relative_to(path).parts
        if child.is_file() and child.suffix.lower() in SUPPORTED_EXTENSIONS and not any(
            p.startswith(".") for p in rel
        ) and not _saved_page_asset(child, path):
            yield child


_NOT_REGULAR = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def check_path(path: Path) -> None:
    """A file or folder to read, or a clear error: reading a pipe or a device would block or never end
    (a folder's walk skips them: it reads regular files only)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"no such file or directory: {path}") from None
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        kind = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
        raise ReaderError(f"{path}: {kind}, not a file or folder; ingest reads regular files only "
                          "(copy the data to a file first)")


def _file_documents(path: Path, text_field: TextFields) -> Iterator[Document]:
    suffix = path.suffix.lower()
    if suffix in (".txt", ".md", ".markdown"):
        yield from iter_text_parts(path, markdown=suffix != ".txt")
        return
    if suffix == ".json":
        check_text_file(path)
        data = _load_json(path)
        if _is_passage_list(data):
            docs = _passage_docs(path, data, corpus="passages")
        elif _is_title_sentences(data):
            docs = _sentence_docs(path, data)
        else:
            records = data if isinstance(data, list) else [data]
            docs = [d for i, r in enumerate(records) if (d := _record_doc(path, r, i, text_field, None))]
        if not docs:
            raise EmptyFileError(f"no text in {path}: no record holds text; nothing to ingest")
        yield from docs
        return
    if suffix == ".jsonl":
        count = 0
        for i, (line_no, record) in enumerate(iter_jsonl(path)):
            if doc := _record_doc(path, record, i, text_field, line_no):
                count += 1
                yield doc
        if not count:
            raise EmptyFileError(f"no text in {path}: no record holds text; nothing to ingest")
        return
    doc = None
    if suffix == ".pdf":
        from memgraph_neo4j.ingest.formats.pdf import read_pdf

        doc = read_pdf(path)
    elif suffix == ".docx":
        from memgraph_neo4j.ingest.formats.docx import read_docx

        doc = read_docx(path)
    elif suffix in _HTML_EXTENSIONS:
        from memgraph_neo4j.ingest.formats.html import read_html

        doc = read_html(path)
    else:
        raise ReaderError(f"unsupported file type {path.suffix or '(none)'!r} for {path}; "
                          f"supported: {', '.join(sorted(SUPPORTED_EXTENSIONS))} (plain text: rename it to .txt)")
    if doc is None:
        raise EmptyFileError(f"no text in {path}: it holds no readable text; nothing to ingest")
    yield doc


def read_musique_corpus(path: str | Path) -> list[Document]:
    """MuSiQue ``corpus.json`` (list of {title, text}) or its folder: one Document per passage."""
    path = _corpus_file(path)
    data = _load_json(path)
    if not _is_passage_list(data):
        raise ReaderError(f"{path}: expected a JSON list of {{'title', 'text'}} records (MuSiQue corpus)")
    return _passage_docs(path, data, corpus="musique")


def read_hotpotqa_corpus(path: str | Path) -> list[Document]:
    """HotpotQA ``corpus.json`` ({title: [sentences]}) or its folder: one Document per title."""
    path = _corpus_file(path)
    data = _load_json(path)
    if not _is_title_sentences(data):
        raise ReaderError(f"{path}: expected a JSON object mapping titles to lists of sentences (HotpotQA corpus)")
    return _sentence_docs(path, data)


# -- helpers -------------------------------------------------------------------------------


def _saved_page_asset(path: Path, root: Path) -> bool:
    """A file in the ``<name>_files`` folder a browser saves next to ``<name>.html`` (frames, ads)."""
    for folder in path.relative_to(root).parents:
        if folder.name.endswith("_files") and any(
            (root / folder).with_name(folder.name[:-6] + ext).is_file() for ext in (".html", ".htm", ".xhtml")
        ):
            return True
    return False


def _read_text(path: Path) -> str:
    check_text_file(path)
    try:
        return path.read_text(encoding="utf-8-sig")  # -sig: drop a BOM some editors add
    except UnicodeDecodeError as exc:
        raise ReaderError(f"{path}: not valid UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8 "
                          "first, e.g. iconv -f latin1 -t utf-8") from None


def _load_json(path: Path) -> Any:
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise ReaderError(f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def _corpus_file(path: str | Path) -> Path:
    path = Path(path)
    if path.is_dir():
        path = path / "corpus.json"
    if not path.is_file():
        raise FileNotFoundError(f"corpus file not found: {path}")
    return path


def _is_passage_list(data: Any) -> bool:
    return (
        isinstance(data, list)
        and bool(data)
        and all(
            isinstance(r, dict)
            and isinstance(r.get("title"), str)
            and isinstance(r.get("text"), str)
            and r.keys() <= _PASSAGE_KEYS
            for r in data
        )
    )


def _is_title_sentences(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and bool(data)
        and all(isinstance(v, list) and all(isinstance(s, str) for s in v) for v in data.values())
    )


def _passage_docs(path: Path, data: list[dict[str, Any]], corpus: str) -> list[Document]:
    return [
        Document(
            title=r["title"],
            text=r["text"],
            source=str(path),
            metadata={"single_passage": True, "corpus": corpus, "index": i},
        )
        for i, r in enumerate(data)
    ]


def _sentence_docs(path: Path, data: dict[str, list[str]]) -> list[Document]:
    # Sentences after the first already carry their leading space: join with '' (as HippoRAG).
    return [
        Document(
            title=title,
            text="".join(sentences),
            source=str(path),
            metadata={"single_passage": True, "corpus": "hotpotqa", "index": i, "n_sentences": len(sentences)},
        )
        for i, (title, sentences) in enumerate(data.items())
    ]


def _record_doc(path: Path, record: Any, index: int, text_field: TextFields, line_no: int | None) -> Document | None:
    where = f"{path}: record {index}" + (f" (line {line_no})" if line_no is not None else "")
    if not isinstance(record, dict):
        raise ReaderError(f"{where} is a JSON {type(record).__name__}, expected an object with a text field")
    fields = (DEFAULT_TEXT_FIELDS if text_field is None
              else (text_field,) if isinstance(text_field, str) else tuple(text_field))
    key = next((f for f in fields if f in record), None)
    if key is None:
        raise ReaderError(f"{where} has no text field (tried {', '.join(map(repr, fields))}; keys: {sorted(record)})")
    text = record[key]
    if not isinstance(text, str):
        raise ReaderError(f"{where}: field {key!r} is a {type(text).__name__}, expected a string")
    if not text.strip():
        return None
    title = record.get("title")
    metadata = {k: v for k, v in record.items() if k not in (key, "title")}
    metadata["record"] = index
    return Document(title=str(title) if title is not None else "", text=text, source=str(path), metadata=metadata)
