"""The files of kept copies (retrieval/persisted.py): what is loaded, what is refused, and that a cache that
cannot be written never fails a search. (tests/integration/test_persisted_copies.py: against Neo4j.)"""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.retrieval.persisted import CopyFiles, identity


def files(tmp_path, epoch="e1", ident="i1") -> CopyFiles:
    return CopyFiles(tmp_path / "copies", "bolt://x neo4j", "space", ident, lambda: epoch, lambda: epoch, 0.0)


def test_a_copy_comes_back_as_it_was_kept(tmp_path):
    payload = {"vectors": np.arange(12, dtype=np.float32).reshape(3, 4), "ids": ["a", "b", "c"]}
    assert files(tmp_path).save("layers", 7, "e1", payload)
    held = files(tmp_path).load("layers", 9)
    assert (held.version, held.epoch, held.payload["ids"]) == (7, "e1", ["a", "b", "c"])
    assert np.array_equal(held.payload["vectors"], payload["vectors"])
    path = files(tmp_path).path("layers")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["layers.pickle"]  # no temporary file left


@pytest.mark.parametrize("other", ["newer than the space", "another epoch", "other code or configuration",
                                   "another space"])
def test_a_copy_of_something_else_is_not_loaded(tmp_path, other):
    files(tmp_path).save("layers", 7, "e1", [1, 2, 3])
    reader = {"another epoch": files(tmp_path, epoch="e2"), "other code or configuration": files(tmp_path, ident="i2"),
              "another space": CopyFiles(tmp_path / "copies", "bolt://x neo4j", "other", "i1", lambda: "e1",
                                         lambda: "e1")}.get(other, files(tmp_path))
    assert reader.load("layers", 6 if other == "newer than the space" else 7) is None


def test_a_file_others_could_write_is_not_loaded(tmp_path):
    kept = files(tmp_path)
    kept.save("layers", 1, "e1", [1])
    os.chmod(kept.directory, 0o770)
    assert kept.load("layers", 1) is None
    os.chmod(kept.directory, 0o700)
    os.chmod(kept.path("layers"), 0o620)
    assert kept.load("layers", 1) is None
    os.chmod(kept.path("layers"), 0o600)
    assert kept.load("layers", 1).payload == [1]


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path):
    (tmp_path / "copies").write_text("a file where the directory should be")
    assert files(tmp_path).save("layers", 1, "e1", [1]) is False
    assert files(tmp_path).load("layers", 1) is None


def test_the_identity_follows_the_configuration_but_not_where_files_go(tmp_path):
    base = identity(RetrievalConfig(copies_dir=None), 384)
    assert identity(RetrievalConfig(copies_dir=tmp_path, persist_min_build_s=5), 384) == base
    assert identity(RetrievalConfig(copies_dir=None, damping=0.6), 384) != base
    assert identity(RetrievalConfig(copies_dir=None), 768) != base


def test_copies_dir_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMGRAPH_COPIES_DIR", str(tmp_path))
    assert RetrievalConfig().copies_dir == tmp_path
    monkeypatch.setenv("MEMGRAPH_COPIES_DIR", "off")
    assert RetrievalConfig().copies_dir is None
    monkeypatch.delenv("MEMGRAPH_COPIES_DIR")
    assert RetrievalConfig().copies_dir.name == "copies"
