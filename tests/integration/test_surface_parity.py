"""One input, one result, whichever surface it goes through: the Python API (`MemoryGraph`), the CLI (`--json`,
run in process with typer's CliRunner: the real commands, options and output) and MCP (`memgraph-neo4j mcp`
as its own process on stdio, driven by the SDK's client: one session for the module). Every operation that
more than one surface offers is compared (the "Surfaces" table of docs/guides/mcp.md lists who offers what)
on the demo corpus: a contradiction to review, a temporal change and a granularity pair resolved offline, a merged
duplicate. A stub OpenAI-compatible model answers `ask`, builds the category hierarchy and selects for dual
search, the same way whichever surface asks it.

Read-only operations run on one reference space. An operation that changes a space runs once per surface,
on spaces built the same way, and the states it leaves are compared; these tests run in file order, each
leaving the surfaces' spaces equal. Surfaces differ in shape (the CLI prints the API's models as JSON, MCP
returns models of its own): results are reduced to the fields they share (tests/integration/surfaces.py)."""

from __future__ import annotations

import json
import os
import re
import uuid

import pytest
from surfaces import (
    conflict_of,
    graph,
    mcp_session,
    plain,
    provenance_of,
    same_graph,
    same_search,
    search_of,
    stub_model,
    timeless,
)
from typer.testing import CliRunner

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.cli.main import app
from memgraph_neo4j.config import Settings
from memgraph_neo4j.demo.scenario import CORPUS, DUPLICATE, QUESTIONS, corpus_files
from memgraph_neo4j.evaluation.health import graph_health
from memgraph_neo4j.llm.chat import OpenAIChat
from memgraph_neo4j.repository.analytics import QUERIES
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval import METHODS
from memgraph_neo4j.retrieval.projection import space_prefix

pytest.importorskip("mcp")

SURFACES = ("api", "cli", "mcp")
ROLES = ("ref", *SURFACES, *(f"chat_{s}" for s in SURFACES), "text_api", "text_mcp")
TURNS = [{"speaker": "Ana", "text": "Acme is based in Paris.", "time": "2024-01-10T09:30:00Z"},
         {"speaker": "Bo", "text": "Sounds lovely. Did you go there?"},
         {"speaker": "Ana", "text": "I moved to Berlin in June.", "time": "2024-06-01"}]
NOTE = "Grace Hopper was born in New York in 1906.\nShe worked on the Harvard Mark I."
COUNTS = ("passages", "passages_new", "facts", "entities_new", "promoted", "activated", "conflicts",
          "conflicts_to_review")  # what every surface's ingest report says (MCP's WriteOutput too)


# ----- the three surfaces ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def names(store):
    """A space per role, deleted with its projections afterwards."""
    tag = uuid.uuid4().hex[:8]
    spaces = {role: f"t_par_{tag}_{role}" for role in ROLES}
    yield spaces
    for space in spaces.values():
        delete_space(store, space, re.escape(space_prefix(space)) + r"\d+_p.*")


@pytest.fixture(scope="module")
def model():
    """The stub chat model: (base URL, model name). No model from the environment otherwise: every surface
    ingests and adjudicates offline, and answers extractively unless given the stub."""
    with pytest.MonkeyPatch.context() as patch, stub_model() as url:
        patch.delenv("OPENAI_API_KEY", raising=False)
        patch.delenv("OPENAI_BASE_URL", raising=False)
        yield url, Settings().llm_model


@pytest.fixture(scope="module")
def chat(model) -> OpenAIChat:
    return OpenAIChat(model=model[1], base_url=model[0])


@pytest.fixture(scope="module")
def cli(neo4j_connection, model):
    """`run(*args, **env)`: the command's --json output, parsed (exit code 0 asserted); `as_json=False`: its
    output as printed, for a command without --json."""
    runner = CliRunner()
    env = {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
           "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database}

    def run(*args: str, as_json: bool = True, **extra_env: str):
        result = runner.invoke(app, [*args, *(["--json"] if as_json else [])], env=env | extra_env)
        assert result.exit_code == 0, (args, result.output, result.exception)
        return json.loads(result.stdout) if as_json else result.stdout
    return run


def memory(store, minilm, space: str) -> MemoryGraph:
    return MemoryGraph(space=space, store=store, embedder=minilm)


@pytest.fixture(scope="module")
def built(store, minilm, names, cli, test_store):
    """The demo corpus in the reference space and the surfaces' spaces: by the API, and for the CLI's by
    `ingest FOLDER` (MCP cannot ingest files: its space is built by the API); the API's and the CLI's reports
    and graphs as they were right after."""
    reports = {}
    for role in ("ref", "api", "mcp"):
        with memory(store, minilm, names[role]) as built_memory:
            reports[role] = built_memory.ingest(corpus_files(), progress=False).model_dump(mode="json")
    reports["cli"] = cli("ingest", str(CORPUS), "--space", names["cli"])
    return {"reports": reports, "graphs": {s: graph(test_store, names[s]) for s in ("api", "cli")}}


@pytest.fixture(scope="module")
def api(store, minilm, names, built, chat):
    """The API on the reference space, its category hierarchy built with the stub (dual search walks it)."""
    with memory(store, minilm, names["ref"]) as ref:
        ref.categorise(chat=chat)
        yield ref


@pytest.fixture(scope="module")
def mcp(neo4j_connection, names, built, model):
    """`call(tool, **arguments)` on one server serving the reference space (its default) and the MCP spaces;
    dual search's model is the stub (OPENAI_BASE_URL), as for the CLI."""
    env = {k: v for k, v in os.environ.items() if k.startswith("MEMGRAPH_") or k == "PYTHONPATH"}
    env |= {"NEO4J_URI": neo4j_connection.uri, "NEO4J_USERNAME": neo4j_connection.username,
            "NEO4J_PASSWORD": neo4j_connection.password, "NEO4J_DATABASE": neo4j_connection.database,
            "OPENAI_BASE_URL": model[0]}
    with mcp_session(env, [names[r] for r in ("ref", "mcp", "chat_mcp", "text_mcp")]) as call:
        yield call


# ----- ingest --------------------------------------------------------------------------------------------------
def test_ingest_of_files_gives_the_same_memory(built):
    """API `ingest(paths)` and CLI `ingest FOLDER`: the same report and the same graph, node for node."""
    reports, graphs = built["reports"], built["graphs"]
    assert reports["api"]["passages_new"] == len(corpus_files()) and reports["api"]["conflicts"] >= 3
    assert timeless(reports["cli"]) == timeless(reports["api"])  # the whole report: the CLI prints the API's
    same_graph(graphs["cli"], graphs["api"], "ingest FOLDER")


def test_ingest_of_a_conversation_gives_the_same_memory(store, minilm, names, cli, mcp, test_store, tmp_path):
    """The same turns as a chat file (API `ingest_conversations(path)`, CLI `ingest chat.jsonl`) and as MCP
    `write_memory(turns=...)`: the same episodes, facts and entities. A chat file's conversation is named after
    the file, turns that name none are conversation "chat": hence chat.jsonl."""
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps(t) + "\n" for t in TURNS))
    with memory(store, minilm, names["chat_api"]) as api:
        report = api.ingest_conversations(chat).model_dump(mode="json")
    reports = {"cli": cli("ingest", str(chat), "--space", names["chat_cli"]),
               "mcp": mcp("write_memory", turns=TURNS, space=names["chat_mcp"])}
    assert report["passages_new"] == len(TURNS) and report["facts"] >= 1
    said = {k: reports["cli"].pop(k) for k in ("read_as", "files", "conversations")}  # and says it read a chat
    assert said == {"read_as": "conversation", "files": [str(chat)], "conversations": 1}
    assert timeless(reports["cli"]) == timeless(report)
    for surface, got in reports.items():  # MCP's WriteOutput: these counts of the report
        assert {k: got[k] for k in COUNTS} == {k: report[k] for k in COUNTS}, surface
        same_graph(graph(test_store, names[f"chat_{surface}"]), graph(test_store, names["chat_api"]), surface)


def test_ingest_of_a_text_gives_the_same_memory(store, minilm, names, mcp, test_store):
    """API `ingest(text)` and MCP `write_memory(text=...)` (the CLI reads files): the same passages, facts and
    entities; the document says which surface wrote it (source "text" or "mcp")."""
    with memory(store, minilm, names["text_api"]) as api:
        report = api.ingest(NOTE, progress=False).model_dump(mode="json")
    written = mcp("write_memory", text=NOTE, space=names["text_mcp"])
    assert report["facts"] >= 2 and {k: written[k] for k in COUNTS} == {k: report[k] for k in COUNTS}
    surface = {"Document": {"source", "metadata"}}
    same_graph(graph(test_store, names["text_mcp"], surface), graph(test_store, names["text_api"], surface), "text")


# ----- search and answers on the reference space ---------------------------------------------------------------
@pytest.mark.parametrize("question", QUESTIONS)
def test_search_gives_the_same_ranking_with_every_method(api, cli, mcp, names, model, chat, question):
    """Every method of the registry, and dual (the API is given the stub, the CLI and MCP read
    OPENAI_BASE_URL): the same passages, facts and entities in the same order, with the same scores."""
    for method in [*METHODS, "dual"]:
        results = {"api": search_of(api.search(question, method=method, top_k=5, chat=chat), "api"),
                   "cli": search_of(cli("query", question, "--space", names["ref"], "--method", method,
                                        "--top-k", "5", OPENAI_BASE_URL=model[0]), "cli"),
                   "mcp": search_of(mcp("search_memory", query=question, method=method, top_k=5), "mcp")}
        same_search(results, f"{method}: {question}")


def test_search_as_of_gives_the_same_ranking(api, cli, mcp, names, model, chat):
    """`as_of` (hybrid methods and dual) through the API, CLI `--as-of` and MCP `search_memory(as_of=)`."""
    question = QUESTIONS[1]  # Microsoft's headquarters: Albuquerque, Bellevue, Redmond, each with its years
    seen = {}
    for as_of in ("1980", "2000-01-01"):
        for method in [m for m in METHODS if m.startswith("hybrid")] + ["dual"]:
            result = search_of(api.search(question, method=method, top_k=5, as_of=as_of, chat=chat), "api")
            got = cli("query", question, "--space", names["ref"], "--method", method, "--as-of", as_of,
                      OPENAI_BASE_URL=model[0])
            by_mcp = mcp("search_memory", query=question, method=method, top_k=5, as_of=as_of)
            same_search({"api": result, "cli": search_of(got, "cli"), "mcp": search_of(by_mcp, "mcp")},
                        f"{method} as of {as_of}")
            seen.setdefault(method, []).append(result)
    assert any(a != b for a, b in seen.values())  # the time reached the search: another time, other facts


def answer_of(answer) -> dict:
    answer = plain(answer)
    return {k: answer[k] for k in ("question", "answer", "cited_passage_ids", "facts", "model", "extractive",
                                   "quotes")} | {"evidence": search_of(answer["evidence"], "api")}


def same_answer(got: dict, expected: dict) -> None:
    assert got["answer"] and got["cited_passage_ids"]
    same_search({"api": expected.pop("evidence"), "cli": got.pop("evidence")}, "ask")
    assert got == expected


def test_ask_with_a_model_gives_the_same_answer(api, cli, names, model, chat):
    """`ask` with a chat model (the stub): API `ask(chat=...)`, CLI `ask --base-url` (MCP has no ask)."""
    for question in QUESTIONS:
        expected = answer_of(api.ask(question, chat=chat))
        assert expected["model"] == model[1] and not expected["extractive"]
        same_answer(answer_of(cli("ask", question, "--space", names["ref"], "--base-url", model[0])), expected)


def test_ask_without_a_model_gives_the_same_extractive_answer(api, cli, names):
    for question in QUESTIONS:
        expected = answer_of(api.ask(question))
        assert expected["extractive"] and expected["quotes"]
        same_answer(answer_of(cli("ask", question, "--space", names["ref"])), expected)


# ----- conflicts, provenance, listings on the reference space ----------------------------------------------------
def test_conflicts_list_and_show_agree(api, cli, mcp, names):
    listed = {"api": plain(api.conflicts.list()),
              "cli": cli("conflicts", "list", "--space", names["ref"]),
              "mcp": mcp("list_conflicts", space=names["ref"], limit=100)["conflicts"]}
    kinds = [(c["id"], c["type"], c["status"]) for c in listed["api"]]
    assert {t for _, t, _ in kinds} >= {"mutual_exclusion", "temporal", "granularity"}  # the demo's
    for surface, rows in listed.items():
        assert [(c["id"], c["type"], c["status"]) for c in rows] == kinds, surface
    assert listed["cli"] == listed["api"]  # the same summaries; MCP lists each conflict's detail instead
    for conflict, summary in zip(listed["mcp"], listed["api"], strict=True):
        assert sorted(f["text"] for f in conflict["facts"]) == sorted(summary["facts"])
        expected = conflict_of(api.conflicts.show(conflict["id"]))
        assert conflict_of(cli("conflicts", "show", conflict["id"], "--space", names["ref"])) == expected
        assert conflict_of(conflict) == expected


def test_provenance_agrees(api, cli, mcp, names):
    """API `provenance(id)`, CLI `provenance ID --json` and MCP `get_provenance`: the facts of every conflict, and
    the facts a search seeded from."""
    fact_ids = {f["id"] for c in api.conflicts.list() for f in api.conflicts.show(c.id).facts}
    fact_ids |= {f.id for q in QUESTIONS for f in api.search(q).facts}
    assert len(fact_ids) >= 8
    for fact_id in sorted(fact_ids):
        expected = provenance_of(api.provenance(fact_id, passages=10), "api")
        assert expected["evidence"], fact_id
        got = provenance_of(mcp("get_provenance", fact_id=fact_id, passages=10, space=names["ref"]), "mcp")
        assert got == expected, fact_id
        by_cli = cli("provenance", fact_id[:12], "--passages", "10", "--space", names["ref"])
        assert provenance_of(by_cli, "cli") == expected, fact_id


def test_an_id_prefix_names_the_same_conflict_and_fact(api, cli, mcp, names):
    """The 12 characters the demo prints name the conflict (CLI `conflicts show`) and a fact (MCP
    `get_provenance`) as the full id does through the API."""
    for summary in api.conflicts.list():
        expected = api.conflicts.show(summary.id)
        assert conflict_of(cli("conflicts", "show", summary.id[:12], "--space", names["ref"])) == conflict_of(expected)
        for fact in expected.facts:
            got = mcp("get_provenance", fact_id=fact["id"][:12], space=names["ref"])
            assert provenance_of(got, "mcp") == provenance_of(api.provenance(fact["id"]), "api")


LISTINGS = {  # API call on the reference space -> the CLI command that prints the same (--space added)
    "stats": (lambda m: m.stats(), ["stats"]),
    "health": (lambda m: graph_health(m.store, m.space), ["health"]),
    "documents": (lambda m: {"space": m.space, "total": len(docs := m.documents()), "documents": docs},
                  ["documents", "list", "--limit", "0"]),
    "categories": (lambda m: m.categories(), ["categories"]),
    "facts": (lambda m: m.facts(), ["facts"]),
    "facts of an entity": (lambda m: m.facts(entity_ids=[m.entity_ids(["Microsoft"])["Microsoft"]]),
                           ["facts", "--entity", "Microsoft"]),
    **{f"facts as of {when}": (lambda m, when=when: m.facts(as_of=when), ["facts", "--as-of", when])
       for when in ("1980", "1990-06-01")},
    **{f"analytics {name}": (lambda m, name=name: m.analytics(name), ["analytics", name]) for name in QUERIES},
}


@pytest.mark.parametrize("listing", LISTINGS)
def test_listings_agree(api, cli, names, listing):
    """stats, health, documents, categories, facts (now and as of a date), every analytics query: API and CLI."""
    call, command = LISTINGS[listing]
    expected = plain(call(api))
    assert expected or listing == "analytics facts_without_evidence", listing  # that one: there should be none
    # GDS sums in parallel: a clustering coefficient may differ in its last bit between two runs
    assert _rounded(cli(*command, "--space", names["ref"])) == _rounded(expected)


def _rounded(value, digits: int = 12):
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: _rounded(v, digits) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v, digits) for v in value]
    return value


def test_spaces_agree(api, cli, names):
    ours = set(names.values())  # other sessions may add spaces of their own meanwhile
    expected = [s for s in plain(api.spaces()) if s["name"] in ours]
    assert {s["name"] for s in expected} >= {names["ref"], names["api"], names["cli"]}
    assert [s for s in cli("spaces", "list") if s["name"] in ours] == expected


@pytest.mark.parametrize("format", ["jsonl", "graphml"])
def test_export_agrees(api, cli, names, tmp_path, format):
    expected = api.export(tmp_path / f"api.{format}", format=format).model_dump(mode="json")
    got = cli("export", "--space", names["ref"], "--format", format, "--out", str(tmp_path / f"cli.{format}"))
    shared = ("format", "nodes", "relationships", "labels", "types", "bytes")
    assert expected["nodes"] and {k: got[k] for k in shared} == {k: expected[k] for k in shared}
    assert (tmp_path / f"cli.{format}").read_bytes() == (tmp_path / f"api.{format}").read_bytes()


# ----- changes: once per surface, on spaces built the same way ----------------------------------------------------
def test_conflict_decisions_leave_the_same_state(store, minilm, names, cli, mcp, test_store):
    """accept (with keep, and the proposed verdicts), reject and revert: API `conflicts.*`, CLI `conflicts ...`,
    MCP `resolve_conflict`, each on its own space; the same conflict after every step, the same graph after."""
    with memory(store, minilm, names["api"]) as api:
        conflicts = {c.type: api.conflicts.show(c.id) for c in api.conflicts.list()}
        turing = conflicts["mutual_exclusion"]
        keep = next(f["id"] for f in turing.facts if "1912" in f["text"])
        steps = [("accept", turing.id, keep), ("revert", turing.id, None),
                 ("reject", conflicts["granularity"].id, None), ("accept", conflicts["granularity"].id, None),
                 ("revert", conflicts["temporal"].id, None), ("accept", conflicts["temporal"].id, None)]
        for action, conflict_id, kept in steps:
            done = api.conflicts.accept(conflict_id, kept) if action == "accept" else \
                getattr(api.conflicts, action)(conflict_id)
            expected = conflict_of(done)
            option = ["--keep", kept] if kept else []
            assert conflict_of(cli("conflicts", action, conflict_id, *option, "--space", names["cli"])) == expected
            resolved = mcp("resolve_conflict", conflict_id=conflict_id, action=action, keep=kept, space=names["mcp"])
            assert conflict_of(resolved["conflict"]) == expected, (action, conflict_id)
    expected = graph(test_store, names["api"])
    for surface in ("cli", "mcp"):
        same_graph(graph(test_store, names[surface]), expected, surface)


def test_a_rescan_finds_the_same(store, minilm, names, cli, test_store):
    """API `adjudicate(rescan_all=True)` and CLI `conflicts scan --all` (MCP has no scan)."""
    with memory(store, minilm, names["api"]) as api:
        expected = api.adjudicate(rescan_all=True).model_dump(mode="json")
    got = cli("conflicts", "scan", "--all", "--space", names["cli"])
    assert expected["scanned"] and timeless(got) == timeless(expected)
    same_graph(graph(test_store, names["cli"]), graph(test_store, names["api"]), "scan")


def test_retracting_a_document_leaves_the_same_state(store, minilm, names, cli, test_store):
    """API `retract` and CLI `documents delete` (MCP has neither): the timeline that states the wrong birth
    year goes, with the contradiction."""
    with memory(store, minilm, names["api"]) as api:
        [doc] = [d for d in api.documents() if d.source.endswith("computing-timeline.md")]
        expected = api.retract([doc.id]).model_dump(mode="json")
    got = cli("documents", "delete", doc.id, "--space", names["cli"], "--yes")
    assert expected["documents"] == 1 and expected["conflicts_obsolete"] >= 1
    assert timeless(got) == timeless(expected)
    same_graph(graph(test_store, names["cli"]), graph(test_store, names["api"]), "retract")


def test_an_unmerge_leaves_the_same_state(store, minilm, names, cli, test_store):
    """API `unmerge(name)` and CLI `entities unmerge NAME` (MCP has neither): the demo's duplicate person."""
    with memory(store, minilm, names["api"]) as api:
        ids = api.entity_ids(DUPLICATE)
        assert len(set(ids.values())) == 1
        merged = next(r["name"] for r in api.analytics("entity_merges") if r["entity"] in DUPLICATE)
        expected = api.unmerge(merged).model_dump(mode="json")
    got = cli("entities", "unmerge", merged, "--space", names["cli"])
    assert expected["mentions_moved"] >= 1 and timeless(got) == timeless(expected)
    same_graph(graph(test_store, names["cli"]), graph(test_store, names["api"]), "unmerge")


def test_categorise_builds_the_same_hierarchy(store, minilm, names, cli, model, chat, test_store):
    """API `categorise(chat=...)` and CLI `categorise --base-url` with the stub (MCP has none), on the
    conversation spaces."""
    with memory(store, minilm, names["chat_api"]) as api:
        expected = plain(api.categorise(chat=chat))
        hierarchy = plain(api.categories())
    got = cli("categorise", "--space", names["chat_cli"], "--base-url", model[0])
    assert hierarchy and got.pop("categories") == hierarchy
    assert timeless(got) == timeless(expected)
    same_graph(graph(test_store, names["chat_cli"]), graph(test_store, names["chat_api"]), "categorise")


def test_deleting_a_space_leaves_none(store, minilm, names, cli):
    """API `delete()` and CLI `spaces delete` (MCP has neither), on the conversation spaces: both gone."""
    with memory(store, minilm, names["chat_api"]) as api:
        api.delete()
        assert not api.exists()
    said = cli("spaces", "delete", names["chat_cli"], "--yes", as_json=False)
    assert said.startswith(f"deleted memory space {names['chat_cli']!r}")
    left = {s["name"] for s in cli("spaces", "list")}
    assert names["chat_mcp"] in left and not left & {names["chat_api"], names["chat_cli"]}
