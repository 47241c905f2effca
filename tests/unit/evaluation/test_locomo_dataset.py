"""`load_dataset` reads LoCoMo (zip, JSON file, or a folder holding either) as an eval dataset: its
conversations, the questions of categories 1-4 with their evidence message ids, `limit` keeping only the
conversations the kept questions are about; other layouts are not mistaken for it (no database)."""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

from memgraph_neo4j.evaluation.datasets import DatasetError, load_dataset

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "locomo_tiny.json"
DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or Path(__file__).resolve().parents[4] / "shared" / "data")


def test_a_locomo_json_file():
    ds = load_dataset(FIXTURE)
    assert ds.name == "locomo_tiny" and ds.gold == "turns" and ds.corpus == [] and ds.openie is None
    assert [c.id for c in ds.conversations] == ["c1", "c2"]
    assert len(ds.questions) == 8  # the category-5 question is not asked
    first = ds.questions[0]
    assert (first.question, first.answer, first.kind) == ("Which city did Ana move to?", "Berlin", "single-hop")
    assert first.gold_turns == ("D1:1",) and first.conversation == "c1"
    assert ds.questions[3].gold_turns == ("D2:2", "D2:4") and ds.questions[3].kind == "multi-hop"


def test_limit_keeps_the_conversations_of_the_kept_questions():
    ds = load_dataset(FIXTURE, limit=3)
    assert [q.conversation for q in ds.questions] == ["c1"] * 3 and [c.id for c in ds.conversations] == ["c1"]


def test_a_zip_and_a_folder_holding_it(tmp_path):
    samples = json.loads(FIXTURE.read_text())
    archive = tmp_path / "data" / "locomo10.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w") as z:
        for sample in samples:  # as shipped: one file per conversation, its fields at the top level
            z.writestr(f"data/locomo10_v2/{sample['sample_id']}.json",
                       json.dumps({**sample["conversation"], "qa": sample["qa"]}))
    from_zip, from_folder = load_dataset(archive), load_dataset(archive.parent)
    assert from_zip.name == from_folder.name == "locomo10" and from_folder.path == archive
    assert from_zip.questions == from_folder.questions and len(from_zip.questions) == 8
    assert [q.gold_turns for q in from_zip.questions] == [q.gold_turns for q in load_dataset(FIXTURE).questions]


def test_other_layouts_are_not_taken_for_locomo(tmp_path):
    folder = tmp_path / "people"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text('{"title": "A", "text": "Ada was born in London."}\n')
    (folder / "questions.jsonl").write_text('{"question": "Where?", "gold_titles": ["A"]}\n')
    assert load_dataset(folder).gold == "titles"
    (tmp_path / "notes.json").write_text('[{"title": "x", "text": "y"}]')
    with pytest.raises(DatasetError, match="notes.json: not a dataset"):
        load_dataset(tmp_path / "notes.json")


def test_broken_locomo_gets_one_line(tmp_path):
    archive = tmp_path / "locomo10.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("data/1.json", "{not json")
    with pytest.raises(DatasetError) as info:
        load_dataset(archive)
    assert "locomo10.zip" in str(info.value) and "expected" in str(info.value) and "\n" not in str(info.value)
    empty = tmp_path / "none.json"
    empty.write_text(json.dumps([{**json.loads(FIXTURE.read_text())[0], "qa": []}]))
    with pytest.raises(DatasetError, match="no question of categories 1-4"):
        load_dataset(empty)


@pytest.mark.skipif(not (DATA / "locomo").is_dir(), reason=f"LoCoMo not found under {DATA} "
                    "(set MEMGRAPH_SHARED_DATA to the folder holding locomo/)")
def test_the_shipped_locomo_folder():
    ds = load_dataset(DATA / "locomo")
    assert ds.name == "locomo10" and len(ds.conversations) == 10 and len(ds.questions) == 1536
    assert {q.kind for q in ds.questions} == {"multi-hop", "temporal", "open-domain", "single-hop"}
