"""Ids by a unique prefix against a real Neo4j (repository/ids.py): the Python API and the CLI take a prefix
of 6 characters or more of a conflict, fact or document id wherever they take an id; a shorter, unknown or
ambiguous one fails saying what to do, in the words of the surface. `conflicts list` shows short ids of the
conflicts and of their facts, each row on one line even through a pipe. (MCP: tests/integration/test_mcp.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from test_adjudication import NEWTON, docs, facts, memory_of, ontology  # noqa: F401 - ontology: a fixture

from memgraph_neo4j.contracts import ConflictStatus, FactState
from memgraph_neo4j.repository.ids import IdError

TWINS = "7417c0ffee"  # the start of the ids tests/cypher/id_twins.cypher makes


@pytest.fixture
def newton(store, space, ontology, minilm):  # noqa: F811
    """A space whose one conflict (two birth years, no rule settles it) waits for review."""
    memory = memory_of(store, space, ontology, minilm, NEWTON)
    memory.ingest(docs("NEWTON_A", "NEWTON_B"), progress=False)
    return memory


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    """The command in its own process, stdout and stderr pipes (no terminal: as `| grep` or a script sees it)."""
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database)
    env.pop("COLUMNS", None)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_the_api_takes_prefixes_of_conflict_fact_and_document_ids(newton, test_store, space):
    [conflict] = newton.conflicts.list()
    stored = facts(test_store, space)
    assert conflict.status == ConflictStatus.NEEDS_REVIEW
    assert conflict.fact_ids == [stored[text]["id"] for text in conflict.facts]  # ids in the order of the texts
    keep, drop = stored["Isaac Newton birth date 1643"]["id"], stored["Isaac Newton birth date 1645"]["id"]

    assert newton.conflicts.show(conflict.id[:6]).id == conflict.id
    accepted = newton.conflicts.accept(conflict.id[:12], keep=keep[:6])
    assert accepted.id == conflict.id and accepted.status == ConflictStatus.RESOLVED
    assert {f["id"]: f["state"] for f in accepted.facts} == {keep: FactState.ACTIVE, drop: FactState.DISCARDED}
    assert newton.conflicts.revert(conflict.id[:8]).status == ConflictStatus.NEEDS_REVIEW
    assert newton.conflicts.reject(conflict.id[:8]).status == ConflictStatus.DISMISSED
    assert newton.provenance(drop[:6]).id == drop

    with pytest.raises(IdError, match=r"^conflict id 'b712' is too short: give at least 6 characters of it: list "
                                      r"them with MemoryGraph\.conflicts\.list\(\)$"):
        newton.conflicts.show("b712")
    with pytest.raises(IdError, match=rf"^no conflict 'ffffffffffff' in space '{space}': list them with "):
        newton.conflicts.show("ffffffffffff")
    with pytest.raises(IdError, match=rf"^no fact 'ffffff' in space '{space}': search\(\) results and "):
        newton.provenance("ffffff")
    # --keep names a fact of this conflict: another one is listed with the conflict's facts
    with pytest.raises(IdError, match=rf"^no fact 'ffffff' in conflict {conflict.id[:12]}: give one of "
                                      rf".*\(Isaac Newton birth date 1643\)"):
        newton.conflicts.accept(conflict.id, keep="ffffff")
    assert newton.conflicts.show(conflict.id).status == ConflictStatus.DISMISSED  # a bad keep wrote nothing
    with pytest.raises(ValueError, match=r"^status 'nope': one of open, resolved, dismissed, needs_review, obsolete$"):
        newton.conflicts.list("nope")

    # documents: retract by a prefix of the id; an unknown one changes nothing
    doc_a = next(d for d in newton.documents() if d.title == "Newton_A")
    with pytest.raises(IdError, match=rf"^no document 'ffffffff' in space '{space}'"):
        newton.retract(["ffffffff", doc_a.id[:8]])
    assert len(newton.documents()) == 2
    assert newton.retract(doc_a.id[:8]).documents == 1 and [d.title for d in newton.documents()] == ["Newton_B"]


def test_an_ambiguous_prefix_lists_the_ids_it_starts(newton, test_store, space):
    test_store.write("id_twins", space=space, prefix=TWINS)
    with pytest.raises(IdError) as conflicts:
        newton.conflicts.show(TWINS + "c")
    assert str(conflicts.value) == (
        f"'{TWINS}c' starts 2 conflict ids in space '{space}' ({TWINS}c0 (mutual_exclusion (needs_review): twin "
        f"fact 0), {TWINS}c1 (mutual_exclusion (needs_review): twin fact 1)): give more of it")
    with pytest.raises(IdError, match=rf"^'{TWINS}f' starts 2 fact ids in space '{space}' \({TWINS}f0 \(twin "
                                      rf"fact 0\), {TWINS}f1 \(twin fact 1\)\): give more of it$"):
        newton.provenance(TWINS + "f")
    assert newton.conflicts.show(TWINS + "c1").id == TWINS + "c1"  # a full id


def test_conflicts_list_shows_short_ids_on_one_line_and_the_commands_take_them(newton, test_store, space,
                                                                               neo4j_connection):
    [conflict] = newton.conflicts.list()
    listed = _cli(neo4j_connection, "conflicts", "list", "--space", space)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    # one line per fact: the conflict's short id, type and status on its first, each fact's short id and text
    first = next(line for line in lines if conflict.id[:12] in line)
    assert "mutual_exclusion" in first and "needs_review" in first
    assert conflict.fact_ids[0][:12] in first and conflict.facts[0] in first
    assert any(conflict.fact_ids[1][:12] in line and conflict.facts[1] in line for line in lines)
    assert conflict.id[:13] not in listed.stdout  # short ids: what `show` and `--keep` take

    keep_line = next(line for line in lines if "Isaac Newton birth date 1643" in line)
    keep = next(word for word in keep_line.split() if any(word == f[:12] for f in conflict.fact_ids))
    shown = _cli(neo4j_connection, "conflicts", "show", conflict.id[:12], "--space", space)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"conflict {conflict.id}  mutual_exclusion  needs_review")
    accepted = _cli(neo4j_connection, "conflicts", "accept", conflict.id[:12], "--keep", keep, "--space", space,
                    "--json")
    assert accepted.returncode == 0, accepted.stderr
    assert json.loads(accepted.stdout)["status"] == "resolved"
    assert facts(test_store, space)["Isaac Newton birth date 1645"]["state"] == FactState.DISCARDED

    # the CLI's words: a command to run, not a method to call
    unknown = _cli(neo4j_connection, "conflicts", "reject", "ffffffffffff", "--space", space)
    assert unknown.returncode == 1 and unknown.stderr.strip() == (
        f"error: no conflict 'ffffffffffff' in space '{space}': list them with `memgraph-neo4j conflicts list "
        f"--space {space}`")
    short = _cli(neo4j_connection, "conflicts", "revert", conflict.id[:5], "--space", space)
    assert short.returncode == 1 and f"conflict id '{conflict.id[:5]}' is too short" in short.stderr
    status = _cli(neo4j_connection, "conflicts", "list", "--status", "nope", "--space", space)
    assert status.returncode == 1 and "one of open, resolved, dismissed, needs_review, obsolete" in status.stderr
