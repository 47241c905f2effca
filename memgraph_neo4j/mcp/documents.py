"""What `write_memory` ingests: a text, or conversation turns written out one line per turn, as one Document.

The document id is the content hash of the text (ingest/readers.Document), so writing the same memory
twice adds nothing."""

from __future__ import annotations

from collections.abc import Sequence

from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.mcp.models import Turn

SOURCE = "mcp"
TITLE_CHARS = 80


def _first_line(text: str) -> str:
    line = next((s.strip() for s in text.splitlines() if s.strip()), "")
    return line if len(line) <= TITLE_CHARS else line[:TITLE_CHARS - 1].rstrip() + "…"


def turn_line(turn: Turn) -> str:
    """`speaker (time): text`, so the extractor sees who said what and when."""
    when = f" ({turn.time})" if turn.time else ""
    return f"{turn.speaker.strip()}{when}: {' '.join(turn.text.split())}"


def memory_document(text: str | None = None, turns: Sequence[Turn] | None = None,
                    title: str | None = None) -> Document:
    """Exactly one of `text` and `turns`; a ValueError says what is missing or doubled."""
    if (text is None) == (not turns):
        raise ValueError("give text or turns, not both: one write is one document" if text is not None
                         else "give text, or turns (a list of {speaker, text, time?})")
    if text is not None:
        if not text.strip():
            raise ValueError("text is empty: nothing to remember")
        return Document(title=(title or _first_line(text)).strip(), text=text.strip(), source=SOURCE,
                        metadata={"kind": "text"})
    lines = [turn_line(t) for t in turns]
    speakers = list(dict.fromkeys(t.speaker.strip() for t in turns))
    times = [t.time for t in turns if t.time]
    metadata = {"kind": "conversation", "turns": len(turns), "speakers": speakers}
    if times:
        metadata |= {"start": times[0], "end": times[-1]}
    default = f"Conversation between {', '.join(speakers)}" + (f" ({times[0]})" if times else "")
    return Document(title=(title or default).strip(), text="\n".join(lines), source=SOURCE, metadata=metadata)
