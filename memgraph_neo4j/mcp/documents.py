"""What `write_memory` ingests: a text as one Document, or conversation turns as a conversation of episodes.

The document id is the content hash of the text (ingest/readers.Document), so writing the same memory
twice adds nothing. Turns are chat records ({speaker, text, time?}) read by the same code as the Python
API's `ingest_conversations` and `memgraph-neo4j ingest` of a chat file (ingest/episodes.py): one
conversation, one session, one Episode per turn with its speaker and time, so the graph is the one the
API writes for the same turns."""

from __future__ import annotations

from collections.abc import Sequence

from memgraph_neo4j.ingest.episodes import Conversation, build_episodes, conversations_of_records
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.mcp.models import Turn
from memgraph_neo4j.validation import check_text_or_turns

SOURCE = "mcp"


def memory_conversation(turns: Sequence[Turn], title: str | None = None) -> Conversation:
    """The turns as one conversation (the API's default id for records that name none); `title` names it
    instead of its speakers. A bad turn raises a ValueError naming it ("turn 2: ...")."""
    [conversation] = conversations_of_records((f"turn {n}", t.model_dump(exclude_none=True))
                                              for n, t in enumerate(turns, 1))
    conversation.title = title.strip() if title and title.strip() else None
    return conversation


def memory_input(text: str | None = None, turns: Sequence[Turn] | None = None,
                 title: str | None = None) -> tuple[Document, Conversation | None]:
    """Exactly one of `text` and `turns`; a ValueError says what is missing or doubled. The document written
    (for turns: the conversation's one session), and the conversation (None for a text)."""
    check_text_or_turns(text, turns)
    if text is not None:
        # no title unless given, as the API's ingest of a text: the offline extractor reads a passage's title as
        # one name wherever the text says it, so a first line as title was one entity and its facts were lost
        return Document(title=(title or "").strip(), text=text.strip(), source=SOURCE,
                        metadata={"kind": "text"}), None
    conversation = memory_conversation(turns, title)
    [document] = build_episodes([conversation]).documents
    return document, conversation
