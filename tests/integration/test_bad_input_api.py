"""Bad input through the Python API, the CLI and MCP alike (memgraph_neo4j/validation.py, ingest/sources.py):
a string that looks like a missing file, an empty text, a named pipe, batch_size 0, an empty question, a
top_k out of range, a title longer than an index entry, a malformed OpenIE file. Each asserts the exact
error and that the kept space (test_bad_input.py) is unchanged."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import threading
import time

import pytest
from test_bad_input import SEED, Empty, kept_space, memory_of, refused, snapshot
from test_cli_errors import _cli, one_line_error

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.extractors.openie import load_openie
from memgraph_neo4j.ingest.readers import Document, EmptyFileError, ReaderError, iter_path

kept = pytest.fixture(scope="module", name="kept")(kept_space)


@pytest.mark.parametrize("source", ["/no/such/file.txt", "notes.md", "./data/corpus", "~/no-such-folder-here"])
def test_a_string_naming_a_missing_file_is_an_error_not_a_document(store, test_store, kept, source):
    refused(store, test_store, kept, [source], FileNotFoundError,
            r"^no such file or directory: .*\(to ingest this string as text, pass Document\(text=\.\.\.\)\)$")


def test_a_one_line_text_is_still_a_text(store, space):
    with memory_of(store, space, extractor=Empty()) as memory:
        report = memory.ingest(["Ada Lovelace met Charles Babbage in 1833.", "and/or"], progress=False)
    assert (report.documents, report.passages) == (2, 2)


@pytest.mark.parametrize("source", ["   ", "", "\n\t\n", Document(text=" \n ")])
def test_an_empty_text_is_refused(store, test_store, kept, source):
    what = "Document" if isinstance(source, Document) else "text"
    refused(store, test_store, kept, [SEED, source], EmptyFileError,
            rf"^no text in source 2 \(a {what}\): it is empty or only whitespace; nothing to ingest$")


def test_batch_size_zero_is_refused(store, test_store, kept, neo4j_connection, tmp_path):
    (tmp_path / "doc.txt").write_text(SEED + " Again.")
    ran = _cli(neo4j_connection, "ingest", str(tmp_path / "doc.txt"), "--space", kept[0], "--batch-size", "0")
    one_line_error(ran, "batch_size must be >= 1 (chunks per extraction batch), not 0")
    with memory_of(store, kept[0]) as memory, pytest.raises(ValueError, match=r"^batch_size must be >= 1 "
                                                            r"\(chunks per extraction batch\), not 0$"):
        memory.ingest(SEED + " Again.", progress=False, batch_size=0)
    assert snapshot(test_store, kept[0]) == kept[1]


def fifo(tmp_path):
    """A named pipe; should a reader open it (the bug), it sees end of file after 20 s, not block forever."""
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)

    def unblock():
        for _ in range(600):  # a reader may open it more than once
            time.sleep(0.1)
            with contextlib.suppress(OSError):  # ENXIO: nobody reads it, as it should be
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    threading.Timer(20, unblock).start()
    return path


def test_a_named_pipe_is_refused_before_the_lease(store, test_store, kept, tmp_path):
    pipe = fifo(tmp_path)
    refused(store, test_store, kept, pipe, ReaderError,
            r"pipe\.txt: a named pipe \(FIFO\), not a file or folder; ingest reads regular files only")
    with pytest.raises(ReaderError, match="a named pipe"):
        next(iter_path(pipe))
    assert test_store.read("ingest_lease", space=kept[0]) == []


def test_a_folder_walk_skips_a_named_pipe(store, space, tmp_path):
    fifo(tmp_path)
    (tmp_path / "a.txt").write_text(SEED)
    with memory_of(store, space, extractor=Empty()) as memory:
        report = memory.ingest(tmp_path, progress=False)
    assert (report.documents, report.passages) == (1, 1)


def test_the_cli_refuses_a_named_pipe(neo4j_connection, space, tmp_path):
    ran = _cli(neo4j_connection, "ingest", str(fifo(tmp_path)), "--space", space)
    one_line_error(ran, "pipe.txt: a named pipe (FIFO), not a file or folder")


@pytest.mark.parametrize("question", ["", "   \n"])
def test_an_empty_question_is_refused(store, minilm, kept, question):
    with MemoryGraph(space=kept[0], store=store, embedder=minilm) as memory:
        for call in (memory.search, memory.answer_extractive):
            with pytest.raises(ValueError, match=r"^the question is empty: give words to search for$"):
                call(question)


def test_top_k_out_of_range_is_refused(store, minilm, space):
    with memory_of(store, space, embedder=minilm, extractor=Empty()) as memory:
        memory.ingest(SEED, progress=False)
        for top_k in (0, 10_001, 1_000_000_000):
            for method in ("dense", "bm25", "memgraphrag"):
                with pytest.raises(ValueError, match=rf"^top_k must be >= 1 and <= 10,000 \(passages to return\), "
                                                     rf"not {top_k}$"):
                    memory.search("Who is Ada?", method=method, top_k=top_k)
        for method in ("dense", "bm25", "memgraphrag"):  # the largest allowed runs
            assert len(memory.search("Who is Ada?", method=method, top_k=10_000).passages) == 1, method


def test_the_cli_refuses_a_huge_top_k_and_an_empty_question(neo4j_connection, kept):
    ran = _cli(neo4j_connection, "query", "Who?", "--space", kept[0], "--method", "dense", "--top-k", "1000000000")
    one_line_error(ran, "top_k must be >= 1 and <= 10,000", code=2)
    assert "not 1000000000" in ran.stderr
    one_line_error(_cli(neo4j_connection, "query", "  ", "--space", kept[0]), "the question is empty")


def test_a_malformed_openie_file_is_named(neo4j_connection, space, tmp_path):
    bad = tmp_path / "malformed.json"
    bad.write_text('{"docs": [{"passage": "x" "y"}]}')
    with pytest.raises(ValueError, match=r"malformed\.json: invalid JSON at line 1, column 27: Expecting ',' "
                                         r"delimiter \(expected HippoRAG OpenIE JSON\)$"):
        load_openie(bad)
    doc = tmp_path / "doc.txt"
    doc.write_text(SEED)
    ran = _cli(neo4j_connection, "ingest", str(doc), "--space", space, "--openie", str(bad))
    one_line_error(ran, f"{bad}: invalid JSON at line 1, column 27")


LONG_TITLE = " ".join(["Ada Lovelace and the Analytical Engine"] * 300)  # ~12 KB, past the ~8 KB of an index entry


@pytest.mark.parametrize("name, content", [
    ("long.jsonl", json.dumps({"title": LONG_TITLE, "text": "DOC_A Ada Lovelace worked for the Analytical Society."})),
    ("long.html", f"<html><head><title>{LONG_TITLE}</title></head><body><p>{SEED}</p></body></html>"),
    ("long.md", f"# {LONG_TITLE}\n\n{SEED}\n"),
])
def test_a_title_longer_than_an_index_entry_is_stored_whole(store, test_store, minilm, space, tmp_path, name,
                                                            content):
    path = tmp_path / name
    path.write_text(content)
    with memory_of(store, space, embedder=minilm, extractor=Empty()) as memory:
        report = memory.ingest(path, progress=False)
        again = memory.ingest(path, progress=False)
        hits = memory.search("Ada Lovelace Analytical Society", method="bm25", top_k=1).passages
    assert (report.documents, report.failed) == (1, 0) and report.passages >= 1  # the heading is text too
    assert (again.passages, again.passages_new) == (report.passages, 0)
    rows = test_store.read("passage_title_keys", space=space)
    assert len(rows) == report.passages and {r["title"] for r in rows} == {LONG_TITLE}  # the whole title, as data
    assert {len(r["key"]) for r in rows} == {1000} and rows[0]["key"].startswith("ada lovelace and the analytical")
    assert hits and hits[0].id in {r["id"] for r in rows}
    assert snapshot(test_store, space)["node:Document"][0] == 1


def test_write_memory_with_a_long_title(store, test_store, minilm, space):
    from memgraph_neo4j.mcp.spaces import SpacePool
    from memgraph_neo4j.mcp.tools import MemoryTools

    pool = SpacePool([space], store=store, extractor=Empty(), embedder=minilm)
    try:
        written = MemoryTools(pool).write_memory(text=SEED, title=LONG_TITLE)
    finally:
        pool.close()
    assert (written.title, written.passages, written.passages_new) == (LONG_TITLE, 1, 1)
    [row] = test_store.read("passage_title_keys", space=space)
    assert row["title"] == LONG_TITLE and len(row["key"]) == 1000


# -- export --out: a device, a pipe, a symlink, an existing file ------------------------------------------


def full_device(tmp_path):
    """A private /dev/full (major 1, minor 7: every write fails with ENOSPC), so a test that replaced it by
    mistake replaces its own node, not the machine's."""
    path = tmp_path / "full"
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("no mknod here (no CAP_MKNOD)")
    return path


def test_export_to_a_full_device_is_an_error_and_keeps_the_device(store, kept, tmp_path, neo4j_connection):
    full = full_device(tmp_path)
    with MemoryGraph(space=kept[0], store=store, embedder=None) as memory, \
            pytest.raises(OSError, match=rf"No space left on device: '{full}'") as caught:
        memory.export(full)
    assert caught.value.errno == errno.ENOSPC
    ran = _cli(neo4j_connection, "export", "--space", kept[0], "--format", "jsonl", "--out", str(full))
    one_line_error(ran, f"--out {full}: No space left on device")
    assert stat.S_ISCHR(full.stat().st_mode) and os.listdir(tmp_path) == ["full"]  # never replaced, no leftover


def test_export_writes_through_a_pipe(store, kept, tmp_path):
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_bytes()), daemon=True)
    reader.start()
    with MemoryGraph(space=kept[0], store=store, embedder=None) as memory:
        report = memory.export(pipe, "graphml")
    reader.join(60)
    assert stat.S_ISFIFO(pipe.stat().st_mode) and len(read[0]) == report.bytes > 0
    assert read[0].startswith(b"<?xml") and read[0].count(b"<node ") == report.nodes


def test_export_through_a_symlink_replaces_its_target(store, kept, tmp_path):
    target = tmp_path / "real" / "space.jsonl"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    with MemoryGraph(space=kept[0], store=store, embedder=None) as memory:
        report = memory.export(link)
    assert link.is_symlink() and link.resolve() == target  # the link stays, written through
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(lines) == report.nodes + report.relationships and lines[0]["kind"] == "node"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file keeps its mode
    assert sorted(os.listdir(target.parent)) == ["space.jsonl"]  # no .partial left
