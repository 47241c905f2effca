"""`memgraph-neo4j spaces`, `documents` and `export` against a real Neo4j, run in process with typer's
CliRunner: listings and their --json, retracting a document, deleting a space, the unknown-space
message, and exports read back (JSON lines parsed, GraphML read with networkx)."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from test_memory import ScriptedExtractor
from typer.testing import CliRunner

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.cli.main import app
from memgraph_neo4j.ingest.readers import Document

SCRIPT = {"DOC_A": [("Ada Lovelace", "works for", "Analytical Society", "Person", "Organization")],
          "DOC_B": [("Grace Hopper", "works for", "US Navy", "Person", "Organization")],
          "DOC_C": [("Alan Turing", "works for", "Bletchley Park", "Person", "Organization")]}
# markup and a form feed (PDF text has them; XML 1.0 does not allow it) must not break the GraphML
DOCS = [Document(title=f"Doc {k[-1]}", text=f"{k} text about <people> & \"places\".\x0cNext page.",
                 source=f"{k.lower()}.md") for k in SCRIPT]


@pytest.fixture
def cli(neo4j_connection):
    runner = CliRunner()
    env = {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
           "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database}

    def run(*args: str, code: int = 0, input: str | None = None):
        result = runner.invoke(app, list(args), env=env, input=input)
        assert result.exit_code == code, (result.output, result.exception)
        return result
    return run


@pytest.fixture
def memory(store, space, minilm) -> MemoryGraph:
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor=ScriptedExtractor(SCRIPT))
    memory.ingest(DOCS, progress=False)
    return memory


def test_spaces_and_documents_list_and_delete(cli, memory, space, store):
    stats = memory.stats()["nodes"]
    [listed] = [s for s in json.loads(cli("spaces", "list", "--json").stdout) if s["name"] == space]
    assert (listed["documents"], listed["passages"], listed["facts"], listed["entities"]) == (
        3, 3, stats["Fact"]["total"], stats["Entity"]["total"])
    assert space in cli("spaces", "list").stdout

    documents = json.loads(cli("documents", "list", "--space", space, "--json").stdout)
    assert documents["total"] == 3
    by_title = {d["title"]: d for d in documents["documents"]}
    assert by_title["Doc B"] | {"ingested_at": None} == {"id": DOCS[1].id, "title": "Doc B", "source": "doc_b.md",
                                                        "passages": 1, "facts": 1, "ingested_at": None}
    assert by_title["Doc B"]["ingested_at"]
    table = cli("documents", "list", "--space", space).stdout  # CliRunner: no terminal, as through a pipe
    assert "doc_a.md" in table
    for d in DOCS:  # every row on one line, its id unbroken
        assert any(d.id in line and d.title in line and d.source in line for line in table.splitlines()), table
    assert len(json.loads(cli("documents", "list", "--space", space, "--limit", "2", "--json").stdout)
               ["documents"]) == 2

    # asked without --yes, "no" changes nothing; a unique prefix of the id is enough
    cli("documents", "delete", DOCS[1].id[:10], "--space", space, input="n\n", code=1)
    assert memory.stats()["nodes"]["Document"]["total"] == 3
    report = json.loads(cli("documents", "delete", DOCS[1].id[:10], "--space", space, "--yes", "--json").stdout)
    assert (report["documents"], report["passages"], report["facts_retracted"]) == (1, 1, 1)
    after = json.loads(cli("documents", "list", "--space", space, "--json").stdout)
    assert sorted(d["title"] for d in after["documents"]) == ["Doc A", "Doc C"]
    assert memory.stats()["nodes"]["Fact"]["by_state"].get("retracted") == 1
    missing = cli("documents", "delete", DOCS[1].id, "--space", space, "--yes", code=1)
    assert f"no document {DOCS[1].id!r} in space {space!r}: list them with `memgraph-neo4j documents list " \
           f"--space {space}`" in missing.output
    short = cli("documents", "delete", DOCS[0].id[:5], "--space", space, "--yes", code=1)
    assert f"document id {DOCS[0].id[:5]!r} is too short: give at least 6 characters" in short.output

    out = cli("spaces", "delete", space, "--yes").stdout
    assert f"deleted memory space {space!r}: 2 documents" in out
    assert space not in [s["name"] for s in json.loads(cli("spaces", "list", "--json").stdout)]
    assert not memory.exists() and store.read("stats/node_counts", space=space) == []


def test_unknown_space_names_the_spaces(cli, memory, space):
    other = f"{space}_nope"
    for command in (["documents", "list"], ["stats"], ["export", "--out", "x.jsonl"]):
        message = cli(*command, "--space", other, code=1).output
        assert f"memory space {other!r} is empty or does not exist; spaces: " in message
        assert space in message.split("spaces: ", 1)[1]  # the existing spaces are named
        assert len(message.strip().splitlines()) == 1 and "Traceback" not in message
    gone = cli("spaces", "delete", other, "--yes", code=1).output
    assert f"memory space {other!r} is empty or does not exist; spaces: " in gone


def test_export_jsonl_and_graphml_read_back(cli, memory, space, test_store, tmp_path):
    nodes = test_store.read("space_node_count", space=space)[0]["nodes"]
    relationships = sum(memory.stats()["relationships"].values())
    jsonl = tmp_path / "space.jsonl"
    report = json.loads(cli("export", "--space", space, "--format", "jsonl", "--out", str(jsonl), "--json").stdout)
    assert (report["nodes"], report["relationships"]) == (nodes, relationships)
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(rows) == nodes + relationships
    by_key = {r["key"]: r for r in rows if r["kind"] == "node"}
    assert len(by_key) == nodes  # keys are unique
    passage = next(r for r in by_key.values() if "Passage" in r["labels"])
    assert "DOC_" in passage["properties"]["text"] and "embedding" not in passage["properties"]
    edges = [r for r in rows if r["kind"] == "relationship"]
    assert all(e["source"] in by_key and e["target"] in by_key for e in edges)  # ends are exported nodes
    assert {e["type"] for e in edges} >= {"HAS_PASSAGE", "EVIDENCED_BY", "MENTIONS", "INSTANCE_OF"}

    graphml = tmp_path / "space.graphml"
    cli("export", "--space", space, "--format", "graphml", "--out", str(graphml))
    graph = nx.read_graphml(graphml, force_multigraph=True)
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (nodes, relationships)
    key = f"Document:{DOCS[0].id}"
    assert graph.nodes[key]["labels"] == ":Document" and graph.nodes[key]["title"] == "Doc A"
    assert graph.nodes[key]["chars"] == len(DOCS[0].text)  # typed: a long, not text
    assert {d["label"] for _, _, d in graph.edges(data=True)} == {e["type"] for e in edges}

    with_vectors = tmp_path / "vectors.jsonl"
    cli("export", "--space", space, "--out", str(with_vectors), "--with-embeddings")
    passage = next(json.loads(line) for line in with_vectors.read_text().splitlines() if '"Passage"' in line)
    assert len(passage["properties"]["embedding"]) == 384
    cli("export", "--space", space, "--format", "csv", "--out", str(tmp_path / "x.csv"), code=2)
    assert not (tmp_path / "x.csv").exists()
