"""Conversations from the command line, on the real Neo4j, run in process with typer's CliRunner:
`memgraph-neo4j ingest` reads a chat file (detected from its speaker and text fields, or with
--conversation) into the graph `MemoryGraph.ingest_conversations` writes for it, and says so; an
ambiguous or malformed file fails naming its file and line and writes nothing; `facts --as-of` and
`categorise` give what the API gives; episode hits are titled with their speaker and time."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from test_conversation import CHAT, Script
from test_conversation_categories import Categories
from typer.testing import CliRunner

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.cli.main import app
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval.projection import space_prefix

RECORDS = [  # the README's chat format
    {"conversation": "c1", "session": "1", "speaker": "Ana", "text": "Acme is based in Paris.",
     "time": "2024-01-10T09:30:00Z"},
    {"conversation": "c1", "session": "1", "speaker": "Bo", "text": "Sounds lovely. Did you go there?"},
    {"conversation": "c1", "session": "2", "speaker": "Ana", "text": "I moved to Berlin.", "time": "2024-06-01"},
]
# what two spaces written from the same input differ in: the space, when things were written or promoted, and
# the space's epoch (a random token of its memory state)
VOLATILE = {"space", "created_at", "activated_at", "promoted_at", "updated_at", "epoch"}


def write_lines(path, records) -> None:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n")


@pytest.fixture
def cli(neo4j_connection):
    runner = CliRunner()
    env = {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
           "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database,
           "OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}

    def run(*args: str, code: int = 0):
        result = runner.invoke(app, list(args), env=env)
        assert result.exit_code == code, (result.output, result.exception)
        return result
    return run


@pytest.fixture
def twin(store):
    """A second space, to write the same input through another surface; deleted afterwards."""
    name = f"t_{uuid.uuid4().hex[:10]}"
    yield name
    delete_space(store, name, re.escape(space_prefix(name)) + r"\d+_p.*")


def graph(test_store, space: str) -> list[str]:
    """The space's nodes and relationships, comparable across spaces."""
    rows = test_store.read("conversation/space_graph", space=space)
    kept = [[r["kind"], sorted(r["labels"]), {k: v for k, v in r["props"].items() if k not in VOLATILE}, r["start"],
             r["end"]] for r in rows]
    return sorted(json.dumps(row, sort_keys=True, default=str) for row in kept)


def episodes(test_store, space: str) -> list[tuple]:
    return sorted((r["speaker"], r["entity"]) for r in test_store.read("conversation/speakers", space=space))


def test_a_chat_file_is_read_as_a_conversation_as_the_api_reads_it(cli, tmp_path, space, twin, store, test_store,
                                                                    minilm):
    chat = tmp_path / "chat.jsonl"
    write_lines(chat, RECORDS)
    ran = cli("ingest", str(chat), "--space", space)
    assert f"read as a conversation: {chat}: 1 conversation, 2 sessions, 3 messages" in " ".join(ran.stdout.split())
    with MemoryGraph(space=twin, store=store, embedder=minilm) as memory:
        memory.ingest_conversations(chat)
    assert episodes(test_store, space) == [("Ana", "Ana"), ("Ana", "Ana"), ("Bo", "Bo")]  # speakers kept
    assert graph(test_store, space) == graph(test_store, twin)  # the API's graph, node for node

    # facts --as-of: the API's facts then (Ana lived in Berlin from the message's day on)
    for when in ("2024-03-01", "2024-07-01"):
        listed = json.loads(cli("facts", "--space", space, "--as-of", when, "--json").stdout)
        with MemoryGraph(space=space, store=store, embedder=None) as memory:
            expected = [json.loads(json.dumps(f.__dict__, default=str)) for f in memory.facts(as_of=when)]
        assert listed == expected
    assert any(f["tail"] == "Berlin" for f in listed)

    again = json.loads(cli("ingest", str(chat), "--space", space, "--conversation", "--json").stdout)
    assert (again["read_as"], again["conversations"], again["passages"], again["passages_new"]) == (
        "conversation", 1, 3, 0)  # the explicit option, and nothing new the second time
    plain = json.loads(cli("ingest", str(chat), "--space", twin, "--no-conversation", "--json").stdout)
    assert "read_as" not in plain and plain["documents"] == 3  # forced: three records of documents


def test_ambiguous_and_malformed_chat_files_fail_naming_the_line(cli, tmp_path, space, store):
    cases = {
        "mixed.jsonl": ([RECORDS[0], {"title": "A note", "text": "Acme has 10 staff."}],
                        ":2: line 1 has a speaker and line 2 has none"),
        "late.jsonl": ([{"text": "A note."}, {"text": "Another."}, RECORDS[1]],
                       ":3: line 3 has a speaker and line 1 has none"),
        "badtime.jsonl": ([RECORDS[0], RECORDS[1] | {"time": "the day after"}],
                          ":2: time 'the day after' is not a date"),
        "badjson.jsonl": ([RECORDS[0], '{"speaker": "Bo", "text": "cut off'], ":2: not valid JSON"),
        "nospeaker.jsonl": ([RECORDS[0], RECORDS[1] | {"speaker": " "}], ":2: speaker must be a non-empty string"),
    }
    for name, (lines, message) in cases.items():
        path = tmp_path / name
        write_lines(path, lines)
        ran = cli("ingest", str(path), "--space", space, code=1)
        assert f"{path}{message}" in " ".join(ran.stderr.split()), (name, ran.stderr)
    notes = tmp_path / "notes.jsonl"
    write_lines(notes, [{"title": "A note", "text": "Acme has 10 staff."}])
    assert f"{notes}:1: speaker must be a non-empty string" in " ".join(
        cli("ingest", str(notes), "--space", space, "--conversation", code=1).stderr.split())
    chat = tmp_path / "chat.jsonl"
    write_lines(chat, RECORDS)
    mixed = " ".join(cli("ingest", str(chat), str(notes), "--space", space, code=1).stderr.split())
    assert f"{chat} is a conversation" in mixed and f"and {notes} is not" in mixed
    assert "--changing-relation lives_in: applies to conversations" in " ".join(cli(
        "ingest", str(notes), "--space", space, "--changing-relation", "lives_in", code=1).stderr.split())
    assert not store.read("stats/space_exists", space=space)[0]["exists"]  # nothing was written


def test_episode_hits_are_titled_with_speaker_and_time(cli, tmp_path, space, store, minilm):
    chat = tmp_path / "chat.jsonl"
    write_lines(chat, RECORDS)
    with MemoryGraph(space=space, store=store, embedder=minilm) as memory:
        memory.ingest_conversations(chat)
        for method in ("dense", "bm25", "hybrid", "hybrid-context", "memgraphrag"):
            hits = {h.text: h.name for h in memory.search("Where is Acme based?", method=method, top_k=3).passages}
            assert hits["[09:30 on 10 January 2024] Ana: Acme is based in Paris."] == "Ana, 2024-01-10 09:30", method
        hits = {h.text: h.name for h in memory.search("Berlin", method="hybrid", top_k=3).passages}
        assert hits["[1 June 2024] Ana: I moved to Berlin."] == "Ana, 2024-06-01"  # a day: no clock
    shown = cli("query", "Where is Acme based?", "--space", space, "--method", "hybrid").stdout
    assert re.search(r"^1\. Ana, 2024-01-10 09:30  score", shown, re.M), shown


@pytest.fixture
def ontology():
    base = load_ontology()  # every schema stable at once, as test_conversation_categories
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1, "percentile": None})})


def test_categorise_builds_the_hierarchy_the_api_builds(cli, space, twin, store, ontology, minilm):
    for name in (space, twin):
        MemoryGraph(space=name, store=store, ontology=ontology, embedder=minilm,
                    extractor=Script()).ingest_conversations([CHAT])
    assert "no category hierarchy yet" in cli("categories", "--space", space).stdout
    ran = json.loads(cli("categorise", "--space", space, "--chat-model", "test_conversation_categories:Categories",
                         "--json").stdout)
    with MemoryGraph(space=twin, store=store, embedder=None) as memory:
        report = memory.categorise(chat=Categories())
        expected = memory.categories()
    assert {k: ran[k] for k in ("revision", "layers", "categories_new", "entities_placed", "entities_left")} == {
        "revision": report.revision, "layers": report.layers, "categories_new": report.categories_new,
        "entities_placed": report.entities_placed, "entities_left": report.entities_left}
    listed = json.loads(cli("categories", "--space", space, "--json").stdout)
    assert [(c["name"], c["layer"], c["summary"], c["members"]) for c in listed] == [
        (c.name, c.layer, c.summary, c.members) for c in expected]
    assert {c["name"] for c in listed} >= {"People", "Places"}
    assert "People" in cli("categories", "--space", space).stdout
    no_model = cli("categorise", "--space", space, code=1).stderr
    assert "categorise needs a chat model" in " ".join(no_model.split())
