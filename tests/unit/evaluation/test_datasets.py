"""Dataset loaders: the real HippoRAG / GraphRAG-Bench files when ../shared/data exists, hand-made
2Wiki-style, JSONL and GraphRAG-Bench folders, and every error giving one line naming file and format."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from memgraph_neo4j.evaluation.datasets import DatasetError, EvalDataset, EvalQuestion, load_dataset

DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or Path(__file__).resolve().parents[4] / "shared" / "data")
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"shared benchmark data not found at {DATA} "
                                "(set MEMGRAPH_SHARED_DATA to the folder holding musique_train/ etc.)")


def _write(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _jsonl(path: Path, records) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records), encoding="utf-8")
    return path


def _error(path, *words, limit=None) -> str:
    with pytest.raises(DatasetError) as info:
        load_dataset(path, limit=limit)
    message = str(info.value)
    assert "\n" not in message
    assert "expected" in message
    for word in words:
        assert str(word) in message, f"{word!r} not in {message!r}"
    return message


# -- real files ---------------------------------------------------------------------------------------


@needs_data
def test_musique():
    ds = load_dataset(DATA / "musique_train")
    assert (ds.name, ds.gold, len(ds.questions), len(ds.corpus)) == ("musique_train", "titles", 100, 1890)
    assert ds.openie == DATA / "musique_train" / "openie_gpt-3.5-turbo-1106.json"
    titles = {d.title for d in ds.corpus}
    raw = json.loads((DATA / "musique_train" / "questions.json").read_text())
    for q, r in zip(ds.questions, raw):
        assert 2 <= sum(p["is_supporting"] for p in r["paragraphs"]) <= 4
        # distinct titles: two questions have both supporting paragraphs under one title
        assert 1 <= len(q.gold_titles) <= 4 and set(q.gold_titles) <= titles
        assert q.gold_titles == tuple(dict.fromkeys(p["title"] for p in r["paragraphs"] if p["is_supporting"]))
        assert q.answer == r["answer"] and q.id == r["id"] and q.kind == r["id"].split("__")[0]
        assert not q.gold_passages and not q.evidence
    assert all(d.metadata["single_passage"] for d in ds.corpus)


@needs_data
def test_hotpotqa():
    ds = load_dataset(DATA / "hotpotqa_train")
    assert (ds.gold, len(ds.questions), len(ds.corpus), ds.openie) == ("titles", 100, 994, None)
    titles = {d.title for d in ds.corpus}
    assert all(len(q.gold_titles) == 2 and set(q.gold_titles) <= titles for q in ds.questions)
    assert {q.kind for q in ds.questions} == {"bridge", "comparison"}
    assert ds.questions[0].id == "5a77ec115542992a6e59dff7" and ds.questions[0].answer == "a spirit"


@needs_data
def test_musique_limit_keeps_the_whole_corpus():
    ds = load_dataset(DATA / "musique_train", limit=5)
    assert len(ds.questions) == 5 and len(ds.corpus) == 1890
    assert ds.questions == load_dataset(DATA / "musique_train").questions[:5]


@needs_data
def test_graphrag_bench():
    ds = load_dataset(DATA / "graphrag_bench_novel")
    assert (ds.gold, len(ds.questions), len(ds.corpus)) == ("evidence", 2010, 20)
    assert len({q.id for q in ds.questions}) == 2010  # one id repeats in the file: the second gets "#2"
    assert {q.kind for q in ds.questions} == {"Fact Retrieval", "Complex Reasoning", "Contextual Summarize",
                                             "Creative Generation"}
    assert all(q.evidence and all(s.strip() for s in q.evidence) for q in ds.questions)
    assert not any(s.startswith(";") or s.endswith(";") for q in ds.questions for s in q.evidence)
    assert sum(len(d.text) for d in ds.corpus) > 4_500_000


@needs_data
def test_graphrag_bench_limit_keeps_only_the_novels_asked_about():
    ds = load_dataset(DATA / "graphrag_bench_novel", limit=30)
    raw = json.loads((DATA / "graphrag_bench_novel" / "questions.json").read_text())[:30]
    assert len(ds.questions) == 30
    assert {d.title for d in ds.corpus} == {r["source"] for r in raw}


# -- hand-made folders --------------------------------------------------------------------------------


@pytest.fixture
def twowiki(tmp_path) -> Path:
    questions = [
        {"_id": "a1", "type": "compositional", "question": "Who directed X?", "answer": "Ann",
         "supporting_facts": [["X", 0], ["Ann", 1], ["X", 2]], "context": [["X", ["X is a film.", " By Ann."]]]},
        {"_id": "a2", "type": "comparison", "question": "Which is older?", "answer": 1999,
         "supporting_facts": [["Y", 0]], "context": []},
    ]
    _write(tmp_path / "questions.json", questions)
    _write(tmp_path / "corpus.json", [{"title": t, "text": f"{t} text."} for t in ("X", "Ann", "Y", "Z")])
    return tmp_path


def test_2wiki_style(twowiki):
    ds = load_dataset(twowiki)
    assert isinstance(ds, EvalDataset) and ds.gold == "titles" and ds.openie is None and len(ds.corpus) == 4
    assert ds.questions[0] == EvalQuestion(id="a1", question="Who directed X?", answer="Ann",
                                           gold_titles=("X", "Ann"), gold_passages=(), evidence=(),
                                           kind="compositional")
    assert ds.questions[1].answer == "1999"
    assert load_dataset(twowiki / "questions.json").questions == ds.questions  # the file names its folder


def test_hotpotqa_style_corpus_and_openie_detected(twowiki):
    _write(twowiki / "corpus.json", {t: [f"{t} is", " a thing."] for t in ("X", "Ann", "Y")})
    _write(twowiki / "openie_model.json", {"docs": []})
    ds = load_dataset(twowiki, limit=1)
    assert [d.text for d in ds.corpus] == ["X is a thing.", "Ann is a thing.", "Y is a thing."]
    assert ds.openie == twowiki / "openie_model.json" and len(ds.questions) == 1


def test_jsonl_folder_with_gold_passages(tmp_path):
    _jsonl(tmp_path / "questions.jsonl", [
        {"id": "x", "question": "Q1?", "answer": "A", "gold_passages": ["Alpha text."]},
        "",
        {"question": "Q2?", "gold_passages": ["Beta text.", "Beta text."], "type": "bridge"},
        {"id": "x", "question": "Q3?", "gold_passages": ["Alpha"]},
    ])
    _jsonl(tmp_path / "corpus.jsonl", [{"title": "A", "text": "Alpha text."}, {"title": "B", "text": "Beta text."}])
    ds = load_dataset(tmp_path)
    assert (ds.name, ds.path, ds.gold, len(ds.corpus)) == (tmp_path.name, tmp_path, "passages", 2)
    assert [q.id for q in ds.questions] == ["x", "q1", "x#2"]
    assert ds.questions[1].gold_passages == ("Beta text.",) and ds.questions[1].kind == "bridge"
    assert ds.questions[1].answer is None and ds.questions[0].gold_titles == ()
    assert len(load_dataset(tmp_path, limit=2).questions) == 2


def test_jsonl_file_with_gold_titles_and_a_corpus_folder(tmp_path):
    questions = _jsonl(tmp_path / "mine.jsonl", [{"question": "Q?", "gold_titles": ["Notes"], "kind": "k"}])
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "a.md").write_text("# Notes\n\nSome notes.\n")
    (tmp_path / "corpus" / "b.txt").write_text("Other.")
    ds = load_dataset(questions)
    assert (ds.name, ds.path, ds.gold) == ("mine", questions, "titles")
    assert ds.questions[0].gold_titles == ("Notes",) and ds.questions[0].kind == "k"
    assert sorted(d.title for d in ds.corpus) == ["Notes", "b"]


@pytest.fixture
def bench(tmp_path) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"corpus_name": ["N1", "N2", "N3"], "context": ["One.", "Two.", "Three."]}),
                   tmp_path / "novel.parquet")
    _write(tmp_path / "questions.json", [
        {"id": "b1", "source": "N2", "question": "Q1?", "answer": "A1", "question_type": "Fact Retrieval",
         "evidence": "First fact.; Second “fact.”; Third fact, with; a semicolon."},
        {"id": "b2", "source": "N3", "question": "Q2?", "answer": "A2", "question_type": "Complex Reasoning",
         "evidence": "Only one."},
    ])
    return tmp_path


def test_graphrag_bench_style(bench):
    ds = load_dataset(bench)
    assert ds.gold == "evidence" and [d.title for d in ds.corpus] == ["N1", "N2", "N3"]
    assert ds.questions[0].evidence == ("First fact.", "Second “fact.”", "Third fact, with; a semicolon.")
    assert ds.questions[0].kind == "Fact Retrieval" and ds.questions[0].gold_titles == ()
    assert [d.title for d in load_dataset(bench, limit=1).corpus] == ["N2"]


# -- errors -------------------------------------------------------------------------------------------


def test_wrong_path(tmp_path):
    _error(tmp_path / "nope", tmp_path / "nope", "no such file", "questions.json + corpus.json")


def test_folder_with_no_layout(tmp_path):
    (tmp_path / "notes.txt").write_text("hi")
    _error(tmp_path, tmp_path, "questions.json", "questions.jsonl", "corpus.json", "*.parquet", "notes.txt")


def test_unknown_file(tmp_path):
    _error(_write(tmp_path / "data.csv", []), tmp_path / "data.csv", "questions.json + corpus.json")


def test_questions_without_corpus(twowiki):
    (twowiki / "corpus.json").unlink()
    _error(twowiki, twowiki / "corpus.json", "missing", "HippoRAG")


def test_malformed_questions_json(twowiki):
    (twowiki / "questions.json").write_text('[\n  {"question": "Q?",\n  oops}\n]')
    _error(twowiki, twowiki / "questions.json", "invalid JSON at line 3", "HippoRAG")


def test_malformed_corpus_json(twowiki):
    (twowiki / "corpus.json").write_text('[{"title": "X"')
    _error(twowiki, twowiki / "corpus.json", "invalid JSON at line 1", "HippoRAG")


def test_corpus_of_the_wrong_shape(twowiki):
    _write(twowiki / "corpus.json", [{"name": "X"}])
    _error(twowiki, twowiki / "corpus.json", "HippoRAG", "title")


@pytest.mark.parametrize(("record", "words"), [
    ({"_id": "1", "answer": "A", "supporting_facts": [["X", 0]]}, ["record 0", "'question'", "missing"]),
    ({"_id": "1", "question": "Q?"}, ["record 0", "paragraphs", "supporting_facts"]),
    ({"_id": "1", "question": "Q?", "supporting_facts": "X"}, ["record 0", "'supporting_facts'"]),
    ({"id": "1", "question": "Q?", "paragraphs": [{"title": "X"}]}, ["record 0", "'paragraphs'", "is_supporting"]),
    ({"id": "1", "question": "Q?", "paragraphs": [{"title": "X", "is_supporting": False}]}, ["no gold titles"]),
    ({"_id": "1", "question": "Q?", "supporting_facts": [["Nowhere", 0]]}, ["'Nowhere'", "corpus.json"]),
    ("just a string", ["record 0", "str"]),
])
def test_bad_hipporag_records(twowiki, record, words):
    _write(twowiki / "questions.json", [record])
    _error(twowiki, twowiki / "questions.json", "HippoRAG", *words)


def test_questions_json_not_a_list(twowiki):
    _write(twowiki / "questions.json", {"question": "Q?"})
    _error(twowiki, twowiki / "questions.json", "not a list of questions", "HippoRAG")


def test_corpus_without_questions(twowiki):
    (twowiki / "questions.json").unlink()
    _error(twowiki, twowiki, "no questions.json", "corpus.json")


@pytest.fixture
def jsonl(tmp_path) -> Path:
    _jsonl(tmp_path / "corpus.jsonl", [{"title": "A", "text": "Alpha text."}])
    return tmp_path


@pytest.mark.parametrize(("records", "words"), [
    (['{"question": "Q?", "gold_titles": ["A"]}', '{"question": "Q2?",'], ["invalid JSON on line 2"]),
    ([{"gold_titles": ["A"]}], ["record 0 (line 1)", "'question'", "missing"]),
    ([{"question": "Q?"}], ["record 0", "neither gold_titles nor gold_passages"]),
    ([{"question": "Q?", "gold_titles": ["A"], "gold_passages": ["Alpha text."]}], ["both"]),
    ([{"question": "Q?", "gold_titles": ["A"]}, {"question": "Q?", "gold_passages": ["Alpha"]}],
     ["record 1 (line 2)", "one kind per file"]),
    ([{"question": "Q?", "gold_titles": "A"}], ["'gold_titles'", "a list of strings"]),
    ([{"question": "Q?", "gold_titles": []}], ["no gold_titles"]),
    ([{"question": "Q?", "gold_titles": ["B"]}], ["'B'", "corpus.jsonl"]),
    ([{"question": "Q?", "gold_passages": ["Gamma"]}], ["gold passage", "'Gamma'", "corpus.jsonl"]),
    ([{"question": "Q?", "gold_titles": ["A"], "answer": ["x"]}], ["'answer'"]),
    ([["Q?"]], ["record 0", "list"]),
    ([], ["no questions"]),
])
def test_bad_jsonl(jsonl, records, words):
    _jsonl(jsonl / "questions.jsonl", records)
    _error(jsonl, jsonl / "questions.jsonl", "questions.jsonl (one object per line", *words)


def test_jsonl_without_corpus(tmp_path):
    _jsonl(tmp_path / "questions.jsonl", [{"question": "Q?", "gold_titles": ["A"]}])
    _error(tmp_path, tmp_path, "no corpus", "corpus.jsonl", "questions.jsonl (one object")


def test_jsonl_with_two_corpora(jsonl):
    _jsonl(jsonl / "questions.jsonl", [{"question": "Q?", "gold_titles": ["A"]}])
    (jsonl / "corpus.txt").write_text("more")
    _error(jsonl, jsonl, "more than one corpus", "corpus.jsonl, corpus.txt", "questions.jsonl (one object")


def test_jsonl_corpus_record_without_text(jsonl):
    _jsonl(jsonl / "questions.jsonl", [{"question": "Q?", "gold_titles": ["A"]}])
    _jsonl(jsonl / "corpus.jsonl", [{"title": "A", "body": "Alpha."}])
    _error(jsonl, jsonl / "corpus.jsonl", "no text field", "questions.jsonl (one object")


def test_corpus_file_given_as_questions(jsonl):
    _error(jsonl / "corpus.jsonl", jsonl / "corpus.jsonl", "corpus file", "questions.jsonl (one object")


def test_graphrag_bench_questions_without_parquet(bench):
    (bench / "novel.parquet").unlink()
    _error(bench, bench, "no *.parquet", "GraphRAG-Bench", "corpus_name")


def test_parquet_without_the_columns(bench):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"name": ["N1"], "text": ["One."]}), bench / "novel.parquet")
    _error(bench, bench / "novel.parquet", "missing corpus_name or context", "GraphRAG-Bench")


def test_damaged_parquet(bench):
    (bench / "novel.parquet").write_bytes(b"not parquet")
    _error(bench, bench / "novel.parquet", "not a readable parquet file", "GraphRAG-Bench")


def test_source_not_in_the_corpus(bench):
    records = json.loads((bench / "questions.json").read_text())
    records[1]["source"] = "N9"
    _write(bench / "questions.json", records)
    _error(bench, bench / "questions.json", "record 1", "'N9'", "novel.parquet", "GraphRAG-Bench")


def test_graphrag_bench_record_without_evidence(bench):
    records = json.loads((bench / "questions.json").read_text())
    del records[0]["evidence"]
    _write(bench / "questions.json", records)
    _error(bench, bench / "questions.json", "record 0", "'evidence'", "GraphRAG-Bench")


def test_missing_pyarrow(bench, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    _error(bench, bench / "novel.parquet", "pip install pyarrow", "GraphRAG-Bench")


def test_limit_must_be_positive(twowiki):
    with pytest.raises(ValueError, match="positive"):
        load_dataset(twowiki, limit=0)
