"""Which files `ingest` reads as conversations (ingest/chat_file.py): told by their speaker fields, in
folders too; ambiguous files and a mix of conversations and documents are refused naming the file; the
records themselves are read as the chat file's lines are (ingest/episodes.py)."""

from __future__ import annotations

import json

import pytest

from memgraph_neo4j.ingest.chat_file import chat_files, is_chat_file
from memgraph_neo4j.ingest.document import ReaderError
from memgraph_neo4j.ingest.episodes import build_episodes, conversations_of, read_chat_jsonl
from memgraph_neo4j.retrieval.base import episode_title

CHAT = [{"speaker": "Ana", "text": "I moved to Porto.", "time": "2024-01-10T09:30:00Z"},
        {"speaker": "Bo", "text": 'Nice! The "speaker": x.'}]
DOCS = [{"title": "Note", "text": 'The "speaker": field is quoted, not a key.'}]  # escaped in JSON


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_chat_file_is_told_from_documents_by_its_fields(tmp_path):
    chat, docs = _write(tmp_path / "chat.jsonl", CHAT), _write(tmp_path / "docs.jsonl", DOCS)
    text = tmp_path / "notes.txt"
    text.write_text("speaker: Ana")
    assert (is_chat_file(chat), is_chat_file(docs), is_chat_file(text)) == (True, False, False)
    assert chat_files([chat], None) == [chat] and chat_files([docs, text], None) is None
    assert chat_files([chat], False) is None and chat_files([docs], True) == [docs]  # the options decide
    with pytest.raises(ReaderError, match=r"notes.txt: a conversation is read from a JSON-lines chat file"):
        chat_files([text], True)
    with pytest.raises(ReaderError, match=r"chat.jsonl is a conversation .* and .*docs.jsonl is not"):
        chat_files([chat, docs], None)


def test_folders_and_ambiguous_files(tmp_path):
    chats = tmp_path / "chats"
    chats.mkdir()
    first, second = _write(chats / "a.jsonl", CHAT), _write(chats / "b.jsonl", CHAT[::-1])
    (chats / "picture.png").write_bytes(b"\x89PNG")  # not read by ingest: no document beside the chats
    assert chat_files([chats], None) == [first, second]
    _write(chats / "c.jsonl", [*CHAT, *DOCS])
    with pytest.raises(ReaderError, match=r"c.jsonl:3: line 1 has a speaker and line 3 has none"):
        chat_files([chats], None)
    assert chat_files([chats], False) is None


def test_records_are_read_as_the_chat_file_lines(tmp_path):
    path = _write(tmp_path / "chat.jsonl", CHAT)
    from_file = build_episodes(read_chat_jsonl(path))
    from_records = build_episodes(conversations_of(CHAT))  # conversation id: "chat", as the file's name
    assert [p.id for p in from_records.passages] == [p.id for p in from_file.passages]
    assert [e.__dict__ for e in from_records.episodes] == [e.__dict__ for e in from_file.episodes]
    with pytest.raises(ReaderError, match=r"record 2: text must be a non-empty string \(missing\)"):
        conversations_of([CHAT[0], {"speaker": "Bo"}])


def test_episode_title():
    from datetime import UTC, datetime

    assert episode_title("Caroline", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)) == "Caroline, 2023-05-08 13:56"
    assert episode_title("Caroline", datetime(2023, 5, 8, tzinfo=UTC)) == "Caroline, 2023-05-08"
    assert (episode_title("Caroline", None), episode_title(None, None)) == ("Caroline", None)
