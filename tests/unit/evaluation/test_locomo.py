"""The LoCoMo loader, the JSON-lines chat reader, episode rows and timestamps (no database)."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memgraph_neo4j.evaluation.locomo import evidence_ids, evidence_recall, load_locomo
from memgraph_neo4j.ingest.document import ReaderError
from memgraph_neo4j.ingest.episodes import build_episodes, read_chat_jsonl
from memgraph_neo4j.memory.validity import parse_time

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "locomo" / "locomo10.zip"

SAMPLE = {
    "speaker_a": "Ana", "speaker_b": "Bo",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [{"speaker": "Ana", "dia_id": "D1:1", "text": "I moved to Berlin."},
                  {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice!", "blip_caption": "a photo of a cake"}],
    "session_2_date_time": "10:00 am on 1 June, 2023",
    "session_2": [{"speaker": "Bo", "dia_id": "D2:1", "text": "How is Berlin?"}],
    "session_3_date_time": "11:00 am on 2 June, 2023",  # a date without messages
    "qa": [{"question": "Where did Ana move?", "answer": "Berlin", "evidence": ["D1:1"], "category": 4},
           {"question": "When?", "answer": "May 2023", "evidence": ["D1:1; D2:1"], "category": 2},
           {"question": "What cake?", "evidence": [], "category": 1},
           {"question": "Adversarial", "adversarial_answer": "x", "evidence": ["D1:2"], "category": 5}],
}


def _zip(tmp_path: Path) -> Path:
    path = tmp_path / "locomo10.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data/multimodal_dialog/locomo10_v2/7.json", json.dumps(SAMPLE))
    return path


def test_loader_reads_sessions_times_captions_and_questions(tmp_path):
    locomo = load_locomo(_zip(tmp_path))
    [conv] = locomo.conversations
    assert conv.id == "7" and conv.title == "Ana and Bo" and conv.speakers == ["Ana", "Bo"]
    assert [s.id for s in conv.sessions] == ["1", "2"]
    assert conv.sessions[0].time == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert conv.sessions[0].messages[1].text == "Nice! (image: a photo of a cake)"
    assert [q.evidence for q in locomo.questions] == [("D1:1",), ("D1:1", "D2:1"), (), ("D1:2",)]
    # categories 1-4 with evidence in the conversation
    assert [q.question for q in locomo.select()] == ["Where did Ana move?", "When?"]


def test_evidence_ids_and_recall():
    assert evidence_ids(["D8:6; D9:17", "D:11:26", "D8:6"]) == ("D8:6", "D9:17", "D11:26")
    assert evidence_recall(["D1:1", "D3:2", "D2:1"], ["D1:1", "D2:1"], 2) == 0.5
    assert evidence_recall(["D1:1", "D3:2", "D2:1"], ["D1:1", "D2:1"], 3) == 1.0


def test_episodes_are_one_passage_per_message_with_stable_ids(tmp_path):
    conv = load_locomo(_zip(tmp_path)).conversations[0]
    batch = build_episodes([conv])
    assert len(batch.documents) == 2 and len(batch.passages) == 3
    first = batch.documents[0]
    assert first.title == "Ana and Bo, session 1 (1:56 pm on 8 May, 2023)"
    for p in batch.passages:  # offsets point into the session's document text
        doc = next(d for d in batch.documents if d.id == p.doc_id)
        assert doc.text[p.start:p.end] == p.text
    assert batch.passages[0].text == "[1:56 pm on 8 May, 2023] Ana: I moved to Berlin."
    assert batch.passages[1].text == "[1:56 pm on 8 May, 2023] Bo: Nice! (image: a photo of a cake)"
    assert batch.said[batch.passages[0].id] == "Ana: I moved to Berlin."  # what the extractor reads
    assert batch.episodes[2].turn == "D2:1" and batch.episodes[2].speaker == "Bo"
    assert batch.episodes[2].time == datetime(2023, 6, 1, 10, 0, tzinfo=UTC)
    assert batch.by_turn[("7", "D1:2")] == batch.passages[1].id
    assert [p.id for p in build_episodes([conv]).passages] == [p.id for p in batch.passages]


def test_chat_jsonl(tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"speaker": "Ana", "text": "I live in Paris.", "time": "2024-01-10T09:00:00Z"},
        {"conversation": "c", "session": "2", "speaker": "Ana", "text": "I moved to Berlin.", "time": "2024-06-01"},
        {"speaker": "Bo", "text": "Welcome!", "id": "m3"},
    ]) + "\n\n")
    convs = {c.id: c for c in read_chat_jsonl(path)}
    assert set(convs) == {"chat", "c"}
    assert convs["chat"].sessions[0].time == datetime(2024, 1, 10, 9, tzinfo=UTC)
    assert [m.id for m in convs["chat"].sessions[0].messages] == [None, "m3"]
    chat = build_episodes([convs["chat"]])
    assert chat.episodes[1].turn == "m3"
    assert [p.text for p in chat.passages] == ["[09:00 on 10 January 2024] Ana: I live in Paris.",
                                               "[09:00 on 10 January 2024] Bo: Welcome!"]  # the session's time
    assert build_episodes([convs["c"]]).passages[0].text == "[1 June 2024] Ana: I moved to Berlin."
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "Ana"}\n')
    with pytest.raises(ReaderError, match="bad.jsonl:1"):
        read_chat_jsonl(bad)


@pytest.mark.parametrize("text, expected", [
    ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9, tzinfo=UTC)),
    ("May 2023", datetime(2023, 5, 1, tzinfo=UTC)),
    ("2019", datetime(2019, 1, 1, tzinfo=UTC)),
    ("2024-03-02T10:00:00+01:00", datetime(2024, 3, 2, 9, tzinfo=UTC)),
    ("yesterday", None),
    ("", None),
])
def test_parse_time(text, expected):
    assert parse_time(text) == expected


@pytest.mark.skipif(not DATA.exists(), reason=f"LoCoMo not found at {DATA} (see ../shared/data/README.md)")
def test_the_shipped_locomo():
    locomo = load_locomo(DATA)
    assert len(locomo.conversations) == 10
    assert sum(c.messages for c in locomo.conversations) == 5882
    assert len(locomo.select()) == 1536  # categories 1-4 with evidence (4 questions name none)
