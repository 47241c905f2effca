"""Bad input on the command line ends with one clear line and exit code 1 (2 for usage errors),
never a traceback, and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memgraph_neo4j.api import MemoryGraph


def _cli(connection, *args: str, key: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    env.pop("OPENAI_API_KEY", None)
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def one_line_error(result: subprocess.CompletedProcess, needle: str, code: int = 1) -> None:
    assert result.returncode == code, result.stderr
    assert needle in result.stderr and "Traceback" not in result.stderr


def test_missing_space_and_bad_top_k(neo4j_connection, space):
    for command in (["stats"], ["query", "Who?"]):
        ran = _cli(neo4j_connection, *command, "--space", space)
        one_line_error(ran, f"memory space {space!r} is empty or does not exist")
        assert len(ran.stderr.strip().splitlines()) == 1
    one_line_error(_cli(neo4j_connection, "query", "Who?", "--space", space, "--top-k", "0"), "--top-k", code=2)


def test_empty_file_is_an_error_and_writes_nothing(neo4j_connection, store, space, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    one_line_error(_cli(neo4j_connection, "ingest", str(empty), "--space", space), "no text in")
    with MemoryGraph(space=space, store=store, embedder=None) as memory:
        assert memory.stats()["nodes"].get("Passage", {"total": 0})["total"] == 0


def test_openai_extractor_without_a_key(neo4j_connection, space, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("Ada Lovelace was born in London in 1815.")
    dry = _cli(neo4j_connection, "ingest", str(doc), "--space", space, "--extractor", "openai", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "dry run: 1 passages" in dry.stdout  # estimating needs no key
    real = _cli(neo4j_connection, "ingest", str(doc), "--space", space, "--extractor", "openai")
    one_line_error(real, "OPENAI_API_KEY is not set")


def test_search_rejects_top_k_zero(store, space, minilm):
    with MemoryGraph(space=space, store=store, embedder=minilm) as memory, \
            pytest.raises(ValueError, match="top_k must be >= 1"):
        memory.search("Who?", top_k=0)
