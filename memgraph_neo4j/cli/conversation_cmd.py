"""`memgraph-neo4j ingest` of conversations: JSON-lines chat files (`--conversation`, or detected from
their speaker and text fields, ingest/chat_file.py) stored as episodes with speaker and time through
`MemoryGraph.ingest_conversations`, as the Python API stores them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memgraph_neo4j.cli.output import fail

CONVERSATION_HELP = ("Read the files as conversations: JSON lines with speaker, text (and time, session, "
                     "conversation) stored as episodes; default: detected from those fields")
CHANGING_HELP = ("Conversations: a relation with one value per subject at a time besides the ontology's "
                 "functional ones (e.g. lives_in); repeatable")


def chat_paths(paths: list[Path], conversation: bool | None, dry_run: bool, openie: Path | None,
               changing: list[str]) -> list[Path] | None:
    """The chat files `ingest` reads as conversations, or None for documents; an ambiguous or mixed input, or
    an option conversations do not take, ends the command naming the file (and line)."""
    from memgraph_neo4j.ingest.chat_file import chat_files
    from memgraph_neo4j.ingest.document import ReaderError

    try:
        chats = chat_files(paths, conversation)
    except ReaderError as exc:
        fail(f"{exc} (--conversation or --no-conversation says how to read them)")
    if chats is not None and dry_run:
        fail(f"--dry-run estimates documents only: {chats[0]} is a conversation (--no-conversation reads it "
             "as documents)")
    if chats is not None and openie is not None:
        fail(f"--openie takes a corpus of documents: {chats[0]} is a conversation")
    if chats is None and changing:
        fail(f"--changing-relation {changing[0]}: applies to conversations, and {paths[0]} is read as documents "
             "(--conversation reads JSON-lines chat files)")
    return chats


def ingest_chats(memory: Any, chats: list[Path], batch_size: int, changing: list[str]) -> tuple[Any, int]:
    """The conversations of the chat files ingested as episodes: (the IngestReport, conversations read).
    A malformed line raises a ReaderError (a ValueError) naming the file and line."""
    from memgraph_neo4j.ingest.episodes import read_chat_jsonl

    conversations = [c for path in chats for c in read_chat_jsonl(path)]
    report = memory.ingest_conversations(conversations, batch_size=batch_size, changing_relations=changing)
    return report, len(conversations)


def conversation_line(chats: list[Path], conversations: int, report: Any) -> str:
    """What the summary says first: which files were read as conversations, and what they held."""
    names = ", ".join(str(p) for p in chats[:3]) + (f" and {len(chats) - 3} more" if len(chats) > 3 else "")
    return (f"read as a conversation: {names}: {conversations} conversation{'s' * (conversations != 1)}, "
            f"{report.documents} sessions, {report.passages} messages as episodes with speaker and time")


def conversation_json(report: Any, chats: list[Path], conversations: int) -> str:
    """The report as JSON, saying it was read as a conversation."""
    data = {"read_as": "conversation", "files": [str(p) for p in chats], "conversations": conversations}
    return json.dumps(data | report.model_dump(mode="json"), indent=2)
