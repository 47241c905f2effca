"""The Cypher analytics pack (cypher/analytics/) on a memory with known content (known_memory.py),
through MemoryGraph.analytics and the `memgraph-neo4j analytics` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest
from known_memory import FIRST, ScriptedExtractor, build_known_memory

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.repository.analytics import QUERIES


@pytest.fixture(scope="module")
def memory(store, minilm):
    space = f"t_{uuid.uuid4().hex[:10]}"
    yield build_known_memory(store, space, minilm)
    store.run_implicit("admin/delete_space", space=space)


def _rows(memory, name, *columns, **params):
    return [tuple(row[c] for c in columns) for row in memory.analytics(name, **params)]


def test_schema_frequency_ranks_schemas(memory):
    assert _rows(memory, "schema_frequency", "relation", "tail_type", "state", "frequency", "facts",
                 "active_facts") == [
        ("born_in", "Place", "stable", 4, 4, 3),  # Curie's undated Warsaw was merged: superseded
        ("birth_date", "Date", "stable", 2, 2, 2),
        ("knows", "Person", "stable", 2, 2, 2),
        ("died_in", "Place", "candidate", 1, 1, 0),
        ("translated", "Work", "candidate", 1, 1, 0)]
    assert len(memory.analytics("schema_frequency", limit=2)) == 2


def test_promotion_history_keeps_the_order_and_the_support_then(memory):
    rows = memory.analytics("promotion_history")
    # born_in became stable in the first ingest with 2 passages and has 4 now; the others in the second
    assert [(r["relation"], r["frequency_at_promotion"], r["frequency"]) for r in rows] == [
        ("born_in", 2, 4), ("birth_date", 2, 2), ("knows", 2, 2)]
    assert rows[0]["promoted_at"] < rows[1]["promoted_at"] == rows[2]["promoted_at"]


def test_entities_by_degree(memory):
    assert _rows(memory, "entity_degree", "name", "facts", "neighbours", "mentions", limit=3) == [
        ("Isaac Newton", 4, 4, 2),  # two birth years, Woolsthorpe, London
        ("Ada Lovelace", 3, 3, 1),
        ("Marie Curie", 3, 2, 2)]  # Warsaw twice (the merged duplicate and its kept fact)


def test_entities_by_pagerank(memory, test_store):
    rows = memory.analytics("entity_pagerank")
    assert len(rows) == 11 and rows[0]["name"] == "Isaac Newton"
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    # the hubs outrank the leaves they link: every person is above every date
    score = {r["name"]: r["score"] for r in rows}
    assert min(score["Ada Lovelace"], score["Marie Curie"]) > max(score["1643"], score["1645"])
    assert [r["name"] for r in memory.analytics("entity_pagerank", limit=2)] == ["Isaac Newton", "Ada Lovelace"]
    assert not [g for g in test_store.read("health_graphs") if g["name"].startswith(f"analytics_{memory.space}_")]


def test_facts_per_passage_distribution(memory):
    # Newton_A, Newton_B: two facts each; Lovelace three; Curie_A three (the kept Warsaw fact took it
    # over from the merged duplicate); Curie_B one
    assert _rows(memory, "facts_per_passage", "facts", "passages") == [(1, 1), (2, 2), (3, 2)]


def test_fact_profile(memory):
    # 7 active facts (born_in 3, birth_date 2, knows 2, as schema_frequency counts them), none a bare
    # co-occurrence; one of the 11 entities is in pending facts only (died_in, translated: candidate schemas)
    assert memory.analytics("fact_profile") == [{"passages": 5, "without_facts": 0, "active": 7, "co_occurrence": 0,
                                                 "entities": 11, "orphans": 1}]


def test_conflict_statistics(memory):
    assert _rows(memory, "conflict_statistics", "type", "status", "conflicts", "facts") == [
        ("duplicate", "resolved", 1, 2), ("mutual_exclusion", "needs_review", 1, 2)]


def test_facts_without_evidence(store, test_store, space, minilm):
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor=ScriptedExtractor(FIRST))
    memory.ingest([Document(title="A", text="NEWTON_A passage")], progress=False)
    assert memory.analytics("facts_without_evidence") == []
    fact = next(f for f in test_store.read("facts_with_evidence", space=space) if "Woolsthorpe" in f["text"])
    assert test_store.write("drop_evidence", space=space, fact=fact["id"]) == [{"dropped": 1}]
    [row] = memory.analytics("facts_without_evidence")
    assert (row["id"], row["fact"]) == (fact["id"], "Isaac Newton born in Woolsthorpe")


def test_unknown_names_and_limits_are_refused(memory):
    with pytest.raises(ValueError, match="entity_degree"):
        memory.analytics("degree")
    with pytest.raises(ValueError, match="limit"):
        memory.analytics("entity_degree", limit=0)


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "analytics", *args],
                          capture_output=True, text=True, env=env, timeout=600)


def test_analytics_cli(memory, neo4j_connection):
    listed = _cli(neo4j_connection)
    assert listed.returncode == 0 and all(name in listed.stdout for name in QUERIES)
    stats = _cli(neo4j_connection, "conflict_statistics", "--space", memory.space, "--json")
    assert stats.returncode == 0, stats.stderr
    assert [(r["type"], r["conflicts"]) for r in json.loads(stats.stdout)] == [
        ("duplicate", 1), ("mutual_exclusion", 1)]
    table = _cli(neo4j_connection, "entity_degree", "--space", memory.space, "--limit", "2")
    assert "Isaac Newton" in table.stdout and "Ada Lovelace" in table.stdout and "London" not in table.stdout
    missing = _cli(neo4j_connection, "entity_degree", "--space", f"{memory.space}_none")
    assert missing.returncode == 1 and "does not exist" in missing.stderr
    unknown = _cli(neo4j_connection, "degree", "--space", memory.space)
    assert unknown.returncode == 1 and "choose one of" in unknown.stderr
