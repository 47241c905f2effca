"""The CLI as the memory service's client (MEMGRAPH_SERVICE_URL set) prints what it prints in process: the
same command run both ways (typer's CliRunner, and the console script as a process for the lean `query`)
against a real uvicorn and Neo4j, stdout compared with only the timings masked. A command that changes a
space runs once per way, on spaces built the same way (ids are content hashes, equal across spaces)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from service_harness import free_port, running
from typer.testing import CliRunner

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.cli.main import app
from memgraph_neo4j.cli.query_cmd import ONE_SHOT
from memgraph_neo4j.demo.scenario import QUESTIONS, corpus_files
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval.projection import space_prefix
from memgraph_neo4j.service.auth import TokenTable
from memgraph_neo4j.service.run import make_service

NOTES = "# Lighthouses\n\nThe Eddystone Lighthouse stands on rocks south of Plymouth.\nIt was rebuilt in 1882.\n"
EXTRA = "Smeaton's Tower was moved to Plymouth Hoe in 1882. John Smeaton designed it.\n"
CHAT = [{"speaker": "Ana", "text": "Acme is based in Paris.", "time": "2024-01-10T09:30:00Z"},
        {"speaker": "Bo", "text": "Did you visit the Acme office?", "time": "2024-01-10T09:31:00Z"},
        {"speaker": "Ana", "text": "I moved to Berlin in June.", "time": "2024-06-01"}]
QUESTION = QUESTIONS[0]




def masked(text: str) -> str:
    """Output without what two runs never share: timings, ingest times, the seconds a run took."""
    text = re.sub(r"^timings \(ms\): .*$", "timings (ms): …", text, flags=re.M)
    text = re.sub(r'"timings_ms": \{[^}]*\}', '"timings_ms": {…}', text)
    text = re.sub(r'"(seconds|ingested_at|detected_at|resolved_at|reviewed_at)": [^,\n]+', r'"\1": …', text)
    text = re.sub(r"; [\d.]+s$", "; …s", text, flags=re.M)
    return re.sub(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\b", "TIME", text)


@pytest.fixture(scope="module")
def env(neo4j_connection):
    """The in-process CLI's environment; no chat model anywhere (ask answers extractively)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MEMGRAPH_SERVICE_URL", "MEMGRAPH_SERVICE_TOKEN"):
            patch.delenv(name, raising=False)
        yield {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
               "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database}


@pytest.fixture(scope="module")
def url(env, test_settings, store, minilm, tmp_path_factory):
    """The service, on the engines a one-shot `query` chooses in process (query_cmd.ONE_SHOT): the same
    float operations, the same scores to the last bit in --json (`serve --ppr-engine gds --layer-search index`)."""
    retrieval = test_settings.retrieval_config(**ONE_SHOT, snapshot_max_mentions=0)
    service = make_service(test_settings, tokens=TokenTable(), host="127.0.0.1", store=store, embedder=minilm,
                           mcp=False, spool=tmp_path_factory.mktemp("jobs"), retrieval=retrieval)
    try:
        with running(service) as found:
            yield found
    finally:
        service.pool.close()


@pytest.fixture(scope="module")
def names(store):
    tag = uuid.uuid4().hex[:8]
    spaces = {role: f"t_cli_{tag}_{role}" for role in ("loc", "svc", "ing_loc", "ing_svc", "grp_loc", "grp_svc")}
    yield spaces
    for space in spaces.values():
        delete_space(store, space, re.escape(space_prefix(space)) + r"\d+_p.*")


@pytest.fixture(scope="module")
def built(store, minilm, names):
    """The demo corpus (a contradiction to review, a temporal change) in the spaces `loc` and `svc`."""
    for role in ("loc", "svc"):
        with MemoryGraph(space=names[role], store=store, embedder=minilm) as memory:
            memory.ingest(corpus_files(), progress=False)
    return names


@pytest.fixture(scope="module")
def cli(env, url):
    """`run(*args, remote=..., input=...) -> (exit code, stdout, stderr)`: in process, or through the service."""
    runner = CliRunner()
    nowhere = {"NEO4J_URI": f"bolt://127.0.0.1:{free_port()}"}  # through the service, Neo4j is the service's

    def run(*args: str, remote: bool | str, input: str | None = None) -> tuple[int, str, str]:
        service = url if remote is True else (remote or None)
        environ = env | (nowhere if service else {}) | {"MEMGRAPH_SERVICE_URL": service}
        result = runner.invoke(app, list(args), env=environ, input=input)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr
    return run


def both(cli, *args: str, input: str | None = None) -> str:
    """The command's stdout, the same in process and through the service (exit code 0 both ways)."""
    local, remote = cli(*args, remote=False, input=input), cli(*args, remote=True, input=input)
    assert local[0] == remote[0] == 0, (args, local, remote)
    assert masked(remote[1]) == masked(local[1]), args
    return local[1]


def process(url_: str | None, env: dict[str, str], *args: str, importtime: bool = False):
    """The console script (cli/entry.py) as a process."""
    environ = {k: v for k, v in os.environ.items() if k not in ("MEMGRAPH_SERVICE_URL", "OPENAI_API_KEY")}
    environ |= env | {"PYTHONPATH": os.pathsep.join(sys.path)}
    if url_:  # Neo4j is the service's: the command must not need it
        environ |= {"MEMGRAPH_SERVICE_URL": url_, "NEO4J_URI": f"bolt://127.0.0.1:{free_port()}"}
    command = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "memgraph_neo4j.cli.entry", *args]
    return subprocess.run(command, capture_output=True, text=True, env=environ, timeout=300)


# ----- reads: the same space both ways ---------------------------------------------------------------------
@pytest.mark.parametrize("as_json", [False, True])
def test_query_prints_the_same(cli, built, as_json):
    flags = ["--json"] if as_json else []
    out = both(cli, "query", QUESTION, "--space", built["loc"], *flags)
    assert out.strip() and "Error" not in out
    out = both(cli, "query", QUESTION, "--space", built["loc"], "--method", "dense", "--top-k", "3", *flags)


def test_the_lean_query_imports_no_typer_rich_pydantic_or_driver(cli, built, url, env):
    local = cli("query", QUESTION, "--space", built["loc"], remote=False)
    for flags in ([], ["--json"]):
        lean = process(url, env, "query", QUESTION, "--space", built["loc"], *flags, importtime=True)
        assert lean.returncode == 0, lean.stderr[-2000:]
        imported = {line.split("|")[-1].strip().split(".")[0] for line in lean.stderr.splitlines()
                    if line.startswith("import time:")}
        assert "memgraph_neo4j" in imported and "urllib" in imported  # the probe sees the imports
        assert not imported & {"typer", "rich", "pydantic", "neo4j", "numpy"}, sorted(imported)
        assert not imported & {"http", "email", "ssl"}, sorted(imported)  # one request on a socket
        expected = local[1] if not flags else cli("query", QUESTION, "--space", built["loc"], "--json",
                                                   remote=False)[1]
        assert masked(lean.stdout) == masked(expected), flags


def test_ask_answers_the_same_extractively(cli, built):
    out = both(cli, "ask", QUESTION, "--space", built["loc"])
    assert out.strip()
    assert json.loads(both(cli, "ask", QUESTION, "--space", built["loc"], "--json"))["extractive"] is True


def test_conflicts_list_and_show_print_the_same(cli, built):
    listed = both(cli, "conflicts", "list", "--space", built["loc"])
    rows = json.loads(both(cli, "conflicts", "list", "--space", built["loc"], "--json"))
    assert rows and rows[0]["id"][:12] in listed
    for row in rows:
        both(cli, "conflicts", "show", row["id"][:12], "--space", built["loc"])
        both(cli, "conflicts", "show", row["id"], "--space", built["loc"], "--json")


def test_an_unknown_conflict_is_refused_in_the_cli_words(cli, built):
    args = ("conflicts", "show", "abcdef123", "--space", built["loc"])
    local, remote = cli(*args, remote=False), cli(*args, remote=True)
    assert local[0] == remote[0] == 1
    assert remote[2] == local[2] and remote[2].count("\n") == 1
    assert f"memgraph-neo4j conflicts list --space {built['loc']}" in remote[2]
    missing = ("documents", "list", "--space", f"{built['loc']}_none")  # a space that holds nothing
    local, remote = cli(*missing, remote=False), cli(*missing, remote=True)
    assert local[0] == remote[0] == 1 and remote[2] == local[2] and "does not exist" in remote[2]


def test_options_the_service_decides_are_refused(cli, built, url):
    code, _, err = cli("ask", QUESTION, "--space", built["loc"], "--model", "gpt-x", remote=True)
    assert code == 1 and "--model" in err and url in err and err.count("\n") == 1
    code, _, err = cli("query", QUESTION, "--space", built["loc"], "--ppr-engine", "local", remote=True)
    assert code == 1 and "--ppr-engine" in err and "serve --ppr-engine" in err


def test_no_service_at_the_url_is_one_line_naming_it(cli, built, env):
    nowhere = f"http://127.0.0.1:{free_port()}"
    code, out, err = cli("conflicts", "list", "--space", built["loc"], remote=nowhere)
    assert code == 1 and not out and nowhere in err and err.count("\n") == 1
    lean = process(nowhere, env, "query", "x", "--space", built["loc"])
    assert lean.returncode == 1 and nowhere in lean.stderr and lean.stderr.count("\n") == 1


# ----- writes: one space per way -------------------------------------------------------------------------
def test_conflict_decisions_print_the_same(cli, built, store, minilm):
    with MemoryGraph(space=built["loc"], store=store, embedder=minilm) as memory:
        review = next(c for c in memory.conflicts.list() if c.status == "needs_review")
    keep = review.fact_ids[0][:12]
    for args in (("accept", review.id[:12], "--keep", keep), ("revert", review.id[:12])):
        local = cli("conflicts", *args, "--space", built["loc"], remote=False)
        remote = cli("conflicts", *args, "--space", built["svc"], remote=True)
        assert local[0] == remote[0] == 0, (args, local, remote)
        assert remote[1] == local[1] and review.id in local[1], args
    both(cli, "conflicts", "list", "--space", built["loc"])  # unchanged by the other space's decisions


def test_ingest_prints_the_same_and_writes_the_same_documents(cli, names, store, minilm, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs" / "more").mkdir(parents=True)
    (tmp_path / "docs" / ".hidden").mkdir()
    (tmp_path / "docs" / "notes.md").write_text(NOTES)
    (tmp_path / "docs" / "more" / "extra.txt").write_text(EXTRA)
    (tmp_path / "docs" / ".hidden" / "skipped.md").write_text("Not read: a hidden folder.")
    (tmp_path / "docs" / "empty.txt").write_text("\n")  # a folder's walk skips a file without text
    (tmp_path / "chat.jsonl").write_text("\n".join(json.dumps(turn) for turn in CHAT) + "\n")
    printed = {}
    for args in (["docs"], ["chat.jsonl"], ["docs", "--json"], ["chat.jsonl", "--json"], ["docs/notes.md"]):
        local = cli("ingest", *args, "--space", names["ing_loc"], remote=False)
        remote = cli("ingest", *args, "--space", names["ing_svc"], remote=True)
        assert local[0] == remote[0] == 0, (args, local, remote)
        assert masked(remote[1]) == masked(local[1]), args
        printed[" ".join(args)] = remote[1]
    assert printed["docs"].startswith("done: 2 documents, 2 passages (2 new)")
    assert printed["chat.jsonl"].startswith("read as a conversation: chat.jsonl: 1 conversation")
    assert json.loads(printed["chat.jsonl --json"])["conversations"] == 1
    assert json.loads(printed["docs --json"])["passages_new"] == 0  # the same files again add nothing
    documents = {}
    for role in ("ing_loc", "ing_svc"):
        with MemoryGraph(space=names[role], store=store, embedder=minilm) as memory:
            documents[role] = [(d.id, d.title, d.source, d.passages) for d in memory.documents()]
    assert documents["ing_svc"] == documents["ing_loc"]
    sources = {d[2] for d in documents["ing_loc"]}
    assert {"docs/notes.md", "docs/more/extra.txt"} <= sources and not any("skipped" in s for s in sources)


def test_documents_list_and_retract_print_the_same(cli, names):
    listed = both(cli, "documents", "list", "--space", names["ing_svc"])
    assert "docs/notes.md" in listed
    both(cli, "documents", "list", "--space", names["ing_svc"], "--limit", "1")
    docs = json.loads(both(cli, "documents", "list", "--space", names["ing_svc"], "--json"))["documents"]
    first, second = (d["id"] for d in docs[:2])
    for args, given in ((("documents", "delete", first[:8], "--yes"), None),
                        (("documents", "delete", second[:10]), "y\n")):
        outs = [cli(*args, "--space", names[role], remote=role == "ing_svc", input=given)
                for role in ("ing_loc", "ing_svc")]
        assert outs[0][0] == outs[1][0] == 0, (args, outs)
        assert outs[1][1].replace(names["ing_svc"], "S") == outs[0][1].replace(names["ing_loc"], "S"), args
        assert "retracted 1 documents" in outs[1][1]
    unknown = [cli("documents", "delete", "ffffffff", "--yes", "--space", names[role], remote=role == "ing_svc")
               for role in ("ing_loc", "ing_svc")]
    assert unknown[0][0] == unknown[1][0] == 1
    assert unknown[1][2].replace(names["ing_svc"], "S") == unknown[0][2].replace(names["ing_loc"], "S")


def test_a_folder_goes_in_bounded_groups_of_files(cli, names, store, minilm, tmp_path, monkeypatch):
    """One upload (one job) per group of files: three jobs for three files, one report, the same documents."""
    from memgraph_neo4j.cli import remote_ingest

    monkeypatch.chdir(tmp_path)
    (tmp_path / "many").mkdir()
    for n, text in enumerate((NOTES, EXTRA, "Plymouth Hoe overlooks Plymouth Sound.\n")):
        (tmp_path / "many" / f"part{n}.md").write_text(text)
    files = remote_ingest.files_of([Path("many")])
    monkeypatch.setattr(remote_ingest, "GROUP_FILES", 1)
    assert [len(g) for g in remote_ingest.groups(files)] == [1, 1, 1]
    local = cli("ingest", "many", "--space", names["grp_loc"], remote=False)
    remote = cli("ingest", "many", "--space", names["grp_svc"], "--json", remote=True)
    assert local[0] == remote[0] == 0, (local, remote)
    report = json.loads(remote[1])
    assert local[1].startswith(f"done: 3 documents, {report['passages']} passages ({report['passages_new']} new)")
    assert report["documents"] == 3
    documents = {}
    for role in ("grp_loc", "grp_svc"):
        with MemoryGraph(space=names[role], store=store, embedder=minilm) as memory:
            documents[role] = sorted((d.id, d.title, d.source) for d in memory.documents())
    # listed in ingest order: three jobs ingest at three times, one run's batch at one (then by id)
    assert documents["grp_svc"] == documents["grp_loc"] and len(documents["grp_loc"]) == 3
