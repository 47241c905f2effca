"""Readers: plain files, JSON/JSONL records, directories and the benchmark corpora (rich formats: test_formats)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memgraph_neo4j.ingest.readers import Document, ReaderError, read_hotpotqa_corpus, read_musique_corpus, read_path
from memgraph_neo4j.memory.normalize import content_hash

SHARED = Path(os.environ.get("MEMGRAPH_SHARED_DATA", Path(__file__).resolve().parents[3] / ".." / "shared" / "data"))
needs_shared = pytest.mark.skipif(
    not (SHARED / "musique_train").is_dir(),
    reason=f"shared benchmark data not found at {SHARED} (set MEMGRAPH_SHARED_DATA)",
)


def test_document_id_is_content_hash() -> None:
    doc = Document(title="t", text="hello")
    assert doc.id == content_hash("hello") and doc.metadata == {}
    assert Document(text="hello", title="other").id == doc.id


def test_txt_md_and_directory(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Plain text.", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.md").write_text("intro\n\n## My Title ##\n\nBody.", encoding="utf-8")
    (tmp_path / "sub" / "c.md").write_text("No heading here.", encoding="utf-8")
    (tmp_path / "skip.csv").write_text("x,y", encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.txt").write_text("hidden", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("  \n", encoding="utf-8")
    docs = read_path(tmp_path)
    assert [(d.title, Path(d.source).name) for d in docs] == [("a", "a.txt"), ("My Title", "b.md"), ("c", "c.md")]
    assert docs[0].text == "Plain text."


def test_json_and_jsonl_records(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps([{"title": "T", "content": "C1", "lang": "en"}, {"passage": "P2"}]), encoding="utf-8")
    docs = read_path(path)
    assert [(d.title, d.text) for d in docs] == [("T", "C1"), ("", "P2")]
    assert docs[0].metadata == {"lang": "en", "record": 0}
    assert "single_passage" not in docs[0].metadata
    jl = tmp_path / "r.jsonl"
    jl.write_text('{"body": "B1", "title": "x"}\n\n{"body": "B2"}\n', encoding="utf-8")
    assert [d.text for d in read_path(jl, text_field="body")] == ["B1", "B2"]


def test_jsonl_bad_record_names_record(tmp_path: Path) -> None:
    jl = tmp_path / "bad.jsonl"
    jl.write_text('{"text": "ok"}\n{"text": "ok too"}\n{"body": "no text"}\n', encoding="utf-8")
    with pytest.raises(ReaderError, match=r"bad\.jsonl: record 2 \(line 3\) has no text field"):
        read_path(jl)
    jl.write_text('{"text": "ok"}\n{"text": broken\n', encoding="utf-8")  # the malformed line is skipped
    assert [d.text for d in read_path(jl)] == ["ok"]
    jl.write_text('{"text": broken\n', encoding="utf-8")
    with pytest.raises(ReaderError, match=r"bad\.jsonl: no line is valid JSON"):
        read_path(jl)
    js = tmp_path / "bad.json"
    js.write_text(json.dumps([{"text": "a"}, {"text": 3}]), encoding="utf-8")
    with pytest.raises(ReaderError, match=r"bad\.json: record 1: field 'text' is a int"):
        read_path(js)


def test_errors_for_missing_and_unsupported(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        read_path(tmp_path / "nope.txt")
    odt = tmp_path / "x.odt"
    odt.write_bytes(b"PK")
    with pytest.raises(ReaderError, match=r"unsupported file type '\.odt'.*supported: .*\.pdf"):
        read_path(odt)
    with pytest.raises(FileNotFoundError, match="corpus.json"):
        read_musique_corpus(tmp_path)


def test_format_detection_small(tmp_path: Path) -> None:
    mus = tmp_path / "m.json"
    mus.write_text(json.dumps([{"title": "A", "text": "a a"}, {"title": "B", "text": "b b"}]), encoding="utf-8")
    docs = read_path(mus)
    assert [d.title for d in docs] == ["A", "B"] and all(d.metadata["single_passage"] for d in docs)
    hot = tmp_path / "h.json"
    hot.write_text(json.dumps({"Demon": ["First sentence.", " Second one."]}), encoding="utf-8")
    [doc] = read_path(hot)
    assert (doc.title, doc.text, doc.metadata["single_passage"]) == ("Demon", "First sentence. Second one.", True)
    with pytest.raises(ReaderError, match="MuSiQue"):
        read_musique_corpus(hot)
    with pytest.raises(ReaderError, match="HotpotQA"):
        read_hotpotqa_corpus(mus)


@needs_shared
def test_musique_corpus() -> None:
    docs = read_musique_corpus(SHARED / "musique_train")
    assert len(docs) == 1890
    assert len({d.id for d in docs}) == 1890
    assert all(d.metadata["single_passage"] and d.title and d.text for d in docs)
    raw = json.loads((SHARED / "musique_train" / "corpus.json").read_text(encoding="utf-8"))
    assert [(d.title, d.text) for d in docs] == [(r["title"], r["text"]) for r in raw]
    assert len(read_path(SHARED / "musique_train" / "corpus.json")) == 1890  # auto-detected


@needs_shared
def test_hotpotqa_corpus() -> None:
    docs = read_hotpotqa_corpus(SHARED / "hotpotqa_train" / "corpus.json")
    assert len(docs) == 994 and all(d.metadata["single_passage"] for d in docs)
    demon = next(d for d in docs if d.title == "Demon Dice")
    assert demon.text.startswith("Demon Dice, originally published as Chaos Progenitus")
    assert "Tim Brown. In it, each player" in demon.text  # sentences carry their own leading space
    assert len(read_path(SHARED / "hotpotqa_train" / "corpus.json")) == 994
