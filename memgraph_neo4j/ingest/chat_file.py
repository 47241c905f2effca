"""Which files `ingest` reads as conversations: JSON-lines chat files (ingest/episodes.py's format, a
`speaker` and a `text` on every line), told from JSON-lines records of documents by their fields.

A file whose every record has a speaker is a conversation, one where none has is documents; a file with
both is ambiguous and raises a ReaderError naming the file and the first line that differs from line one
(read as documents, its speakers and times would be dropped without a word). Reading documents and
conversations in one run is refused the same way: they are two ingests with two reports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from memgraph_neo4j.ingest.document import ReaderError
from memgraph_neo4j.ingest.readers import SUPPORTED_EXTENSIONS

CHAT_SUFFIX = ".jsonl"
_SPEAKER = re.compile(rb'"speaker"\s*:')  # a line without it has no speaker field: no JSON parse needed


def _has_speaker(raw: bytes) -> bool:
    """Whether one line is a chat record; a line that names a speaker but is no JSON counts as one, so
    that the chat reader reports it with its line number."""
    if not _SPEAKER.search(raw):
        return False
    try:
        record = json.loads(raw)
    except ValueError:
        return True
    return isinstance(record, dict) and "speaker" in record


def is_chat_file(path: Path) -> bool:
    """True when every record of a .jsonl file has a speaker, False when none has (or it is no .jsonl);
    a ReaderError when some have and some have not."""
    if path.suffix.lower() != CHAT_SUFFIX or not path.is_file():
        return False
    first: tuple[int, bool] | None = None
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            chat = _has_speaker(raw)
            if first is None:
                first = (number, chat)
            elif chat != first[1]:
                had, lacks = (first[0], number) if first[1] else (number, first[0])
                raise ReaderError(f"{path}:{number}: line {had} has a speaker and line {lacks} has none: a chat "
                                  "file has speaker and text on every line, a file of documents no speaker")
    return first is not None and first[1]


def _files(path: Path) -> list[Path]:
    """A file, or the files of a folder that ingest's walk reads (ingest/readers.py; hidden ones left out)."""
    if not path.is_dir():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_EXTENSIONS
                  and not any(part.startswith(".") for part in p.relative_to(path).parts))


def chat_files(paths: Iterable[Path], conversation: bool | None) -> list[Path] | None:
    """The chat files to ingest as conversations, or None to ingest `paths` as documents. `conversation`:
    True reads every .jsonl file named (or in a folder named) as a chat, False none; None decides by the
    fields. A ReaderError when the files are ambiguous or mix conversations and documents."""
    if conversation is False:
        return None
    paths = list(paths)
    files = [f for p in paths for f in _files(p)]
    if conversation:
        named = next((p for p in paths if not p.is_dir() and p.suffix.lower() != CHAT_SUFFIX), None)
        if named is not None:
            raise ReaderError(f"{named}: a conversation is read from a JSON-lines chat file (.jsonl), one message "
                              "per line with speaker and text")
        chats = [f for f in files if f.suffix.lower() == CHAT_SUFFIX]
        if not chats:
            raise ReaderError(f"no .jsonl file in {', '.join(map(str, paths))}: a conversation is read from "
                              "JSON lines, one message per line with speaker and text")
        return chats
    chats = [f for f in files if is_chat_file(f)]
    if not chats:
        return None
    plain = next((f for f in files if f not in chats), None)
    if plain is not None:
        raise ReaderError(f"{chats[0]} is a conversation (speaker and text on every line) and {plain} is not: "
                          "ingest conversations and documents in two runs")
    return chats
