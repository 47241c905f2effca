"""Copies kept on disk (retrieval/persisted.py): a new process loads them, reads only what changed since, and
searches exactly as a context that read everything from Neo4j (test_read_after_write's `assert_same_copies`:
the PPR graph edge for edge and with the GDS projection, seed statistics, BM25, titles, layer vectors, and
every method's results). A file of another incarnation of the space, another code or configuration, or one
that someone else could have written, is not loaded: that copy is read whole.
"""

from __future__ import annotations

import stat

import pytest
import test_read_after_write
from test_read_after_write import QUESTIONS, TEXTS, assert_same_copies
from test_retrieval import Session

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.repository.documents import delete_space

# the titles copy too, but only for a space whose passages lack their stored title key (not these)
COPIES = {"layers", "bm25", "statistics", "graph"}
memory = test_read_after_write.memory  # the fixture: the memory with the scripted facts


def kept(tmp_path, **options) -> RetrievalConfig:
    """Copies kept under tmp_path, whatever their read took; the push form of PageRank (kept too) on."""
    return RetrievalConfig(copies_dir=tmp_path / "copies", persist_min_build_s=0.0, push_min_relationships=0,
                           **options)


def fresh_config() -> RetrievalConfig:
    """The same retrieval, every copy read from Neo4j (tests/conftest: MEMGRAPH_COPIES_DIR=off)."""
    return RetrievalConfig(push_min_relationships=0)


def warm(session: Session) -> Session:
    for question in QUESTIONS:
        session.search(question, method="memgraphrag")
        session.search(question, method="bm25")
    return session


def builds(session: Session) -> dict[str, int]:
    return {name: f.builds for name, f in session.context.followed().items() if name in COPIES}


def header_versions(session: Session) -> dict[str, int]:
    import pickle

    out = {}
    for path in session.context.files.directory.iterdir():
        with path.open("rb") as f:
            out[path.stem] = pickle.load(f)["version"]
    return out


def test_a_new_process_starts_from_the_kept_copies(memory, store, space, minilm, test_store, tmp_path):
    config = kept(tmp_path)
    first = warm(Session(store, space, minilm, config))
    assert builds(first) == dict.fromkeys(COPIES, 1)
    directory = first.context.files.directory
    assert sorted(p.name for p in directory.iterdir()) == sorted(f"{n}.pickle" for n in COPIES | {"push"})
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in directory.iterdir()} == {0o600}
    version = first.context.layers.repository.version()
    first.context.close()
    assert first.context.files.saves == len(COPIES) + 1  # nothing moved since: close wrote nothing more

    # the space unchanged: every copy (and the push form) loaded, none read, the same results
    second = Session(store, space, minilm, config)
    assert_same_copies(second, Session(store, space, minilm, fresh_config()), test_store)
    assert builds(second) == dict.fromkeys(COPIES, 0)
    assert second.context.files.loads == len(COPIES) + 1
    assert all(f.catch_ups == 0 for f in second.context.followed().values())

    # a write since: loaded, then caught up from the changes (not read whole), and equal
    memory.ingest([Document(title="Hopper", text=TEXTS["HOPPER"])], progress=False)
    third = Session(store, space, minilm, config)
    assert_same_copies(third, Session(store, space, minilm, fresh_config()), test_store)
    assert builds(third) == dict.fromkeys(COPIES, 0)
    assert third.context.layers.copy.catch_ups == 1 and third.context.engine.copy.catch_ups == 1
    # the push form kept for the content loaded, corrected for the write (ppr/push.update_push_graph)
    assert (third.context.engine.push_builds, third.context.engine.push_updates) == (0, 1)
    assert set(header_versions(third).values()) == {version}  # a correction is kept at close, not as it comes
    third.context.close()  # the copies moved: written at the version they reached
    now = third.context.layers.repository.version()
    assert now > version and set(header_versions(third).values()) == {now}  # the corrected push form's too
    fourth = Session(store, space, minilm, config)
    assert_same_copies(fourth, Session(store, space, minilm, fresh_config()), test_store)
    assert builds(fourth) == dict.fromkeys(COPIES, 0)
    assert all(f.catch_ups == 0 for f in fourth.context.followed().values())
    assert (fourth.context.engine.push_builds, fourth.context.engine.push_updates) == (0, 0)  # loaded as is


def test_a_space_written_again_ignores_its_old_copies(memory, store, space, minilm, test_store, tmp_path):
    config = kept(tmp_path)
    first = warm(Session(store, space, minilm, config))
    first.context.close()
    kept_version = max(header_versions(first).values())
    delete_space(store, space)
    memory.close()
    again = type(memory)(space=space, store=store, ontology=memory.ontology, embedder=minilm,
                         extractor=memory.extractor, retrieval=RetrievalConfig())
    try:
        again.ingest([Document(title="Warsaw", text=TEXTS["WARSAW"])], progress=False)
        while again.retrieval.layers.repository.version() < kept_version:  # only the epoch tells them apart
            store.write("memory/bump_version", space=space, stamped=True)
        second = Session(store, space, minilm, config)
        assert_same_copies(second, Session(store, space, minilm, fresh_config()), test_store)
        assert builds(second) == dict.fromkeys(COPIES, 1) and second.context.files.loads == 0
    finally:
        again.close()


@pytest.mark.parametrize("damage", ["readable by others", "truncated", "other configuration"])
def test_a_file_that_does_not_fit_is_read_whole(memory, store, space, minilm, test_store, tmp_path, damage):
    config = kept(tmp_path)
    first = warm(Session(store, space, minilm, config))
    first.context.close()
    path = first.context.files.path("layers")
    if damage == "readable by others":
        path.chmod(0o644)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    else:
        config = kept(tmp_path, fusion_confidence_top=3)
    second = Session(store, space, minilm, config)
    fresh = Session(store, space, minilm, fresh_config() if damage != "other configuration"
                    else RetrievalConfig(push_min_relationships=0, fusion_confidence_top=3))
    assert_same_copies(second, fresh, test_store)
    expected = dict.fromkeys(COPIES, 1 if damage == "other configuration" else 0) | {"layers": 1}
    assert builds(second) == expected


def test_deleting_the_space_deletes_its_files(memory, store, space, minilm, tmp_path):
    from memgraph_neo4j.api import MemoryGraph

    other = MemoryGraph(space=space, store=store, embedder=minilm, retrieval=kept(tmp_path))
    try:
        other.search(QUESTIONS[0])
        directory = other.retrieval.files.directory
        assert sorted(p.stem for p in directory.iterdir()) == sorted(COPIES | {"push"})
        other.delete()
        assert not directory.exists()
    finally:
        other.close()


def test_spaces_delete_deletes_its_files(memory, store, space, minilm, tmp_path, neo4j_connection):
    """The CLI's `spaces delete` too (its RetrievalConfig: MEMGRAPH_COPIES_DIR), and only that space's."""
    from typer.testing import CliRunner

    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.cli.main import app

    other = MemoryGraph(space=space, store=store, embedder=minilm, retrieval=kept(tmp_path))
    try:
        other.search(QUESTIONS[0])
        directory = other.retrieval.files.directory
        beside = directory.parent / "another-space"
        beside.mkdir(mode=0o700)
        env = {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
               "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database,
               "MEMGRAPH_COPIES_DIR": str(tmp_path / "copies")}
        result = CliRunner().invoke(app, ["spaces", "delete", space, "--yes"], env=env)
        assert result.exit_code == 0, (result.output, result.exception)
        assert not directory.exists() and beside.exists()
    finally:
        other.close()
