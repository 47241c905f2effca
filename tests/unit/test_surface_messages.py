"""One rule for ids on every surface (repository/ids.pick), and refusals worded per surface
(validation.SurfaceError): the Python API names methods, the CLI commands and options, MCP tools and
arguments; lists of choices come from the registries, not from literals."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import get_args

import pytest

from memgraph_neo4j.cli import output
from memgraph_neo4j.contracts import ConflictStatus
from memgraph_neo4j.mcp import server, tools
from memgraph_neo4j.repository.ids import MIN_PREFIX, Candidate, IdError, pick, short_ids
from memgraph_neo4j.retrieval import METHODS, SEARCH_METHODS, check_method
from memgraph_neo4j.validation import API_REMEDIES, SurfaceError

A = "b712d2d179c4" + "0" * 20
B = "b712d2d179c4" + "1" * 20
C = "b712d2aa" + "2" * 24
CANDIDATES = [Candidate(A, "mutual_exclusion (needs_review): Alan Turing birth date 1912"),
              Candidate(B, "temporal (resolved): Microsoft headquartered in Redmond"), Candidate(C, None)]


def starting(prefix: str) -> list[Candidate]:
    return [c for c in CANDIDATES if c.id.startswith(prefix)]


def test_a_full_id_or_a_unique_prefix_of_six_names_one_id():
    assert pick("conflict", A, starting(A), "space 'demo'") == A
    assert pick("conflict", "b712d2a", starting("b712d2a"), "space 'demo'") == C
    assert pick("conflict", B[:13], starting(B[:13]), "space 'demo'") == B
    # a full id names itself even when it is shorter than a prefix must be, or starts a longer id
    assert pick("document", "doc", [Candidate("doc"), Candidate("doc-2")], "space 'demo'") == "doc"


def test_short_unknown_and_ambiguous_prefixes_say_what_to_do():
    with pytest.raises(IdError) as short:
        pick("conflict", "b712", starting("b712"), "space 'demo'", space="demo")
    assert str(short.value).startswith(f"conflict id 'b712' is too short: give at least {MIN_PREFIX} characters")
    with pytest.raises(IdError) as unknown:
        pick("conflict", "ffffff", [], "space 'demo'", space="demo")
    assert str(unknown.value) == "no conflict 'ffffff' in space 'demo': list them with MemoryGraph.conflicts.list()"
    assert unknown.value.worded(output.REMEDIES) == ("no conflict 'ffffff' in space 'demo': list them with "
                                                     "`memgraph-neo4j conflicts list --space demo`")
    assert unknown.value.worded(server.REMEDIES) == ("no conflict 'ffffff' in space 'demo': list_conflicts returns "
                                                     "the conflict ids")
    with pytest.raises(IdError) as ambiguous:
        pick("conflict", "b712d2", starting("b712d2"), "space 'demo'")
    message = str(ambiguous.value)
    assert message.startswith("'b712d2' starts 3 conflict ids in space 'demo' (")
    assert message.endswith("): give more of it")
    # each candidate with as many characters as tell them apart, and its label
    assert f"{A[:16]} (mutual_exclusion (needs_review): Alan Turing birth date 1912)" in message
    assert f"{B[:16]} (temporal (resolved)" in message and f"{C[:16]}, " in message  # no label: the id alone
    # among a conflict's own facts: nothing matched lists them
    with pytest.raises(IdError, match=r"^no fact 'abcdef' in conflict b712d2d179c4: give one of b712d2d179c4000"):
        pick("fact", "abcdef", [], "conflict b712d2d179c4", among=CANDIDATES)


def test_short_ids_grow_until_they_differ():
    assert short_ids([A, C]) == {A: A[:12], C: C[:12]}
    assert short_ids([A, B]) == {A: A[:16], B: B[:16]}


def test_every_surface_words_every_remedy_without_the_others_words():
    assert set(output.REMEDIES) == set(API_REMEDIES) == set(server.REMEDIES)
    values = {"space": "demo", "facts": "abc, def"}
    for key in API_REMEDIES:
        error = SurfaceError("problem", key, **values)
        cli, mcp, api = error.worded(output.REMEDIES), error.worded(server.REMEDIES), str(error)
        assert "--" not in mcp and "memgraph-neo4j" not in mcp, mcp  # an agent calls tools, not commands
        assert "--" not in api and "memgraph-neo4j" not in api, api
        assert "select_fn" not in cli + mcp + api
        assert len({cli, mcp, api}) == 3
    assert SurfaceError("plain").worded(output.REMEDIES) == "plain" == str(SurfaceError("plain"))


def test_method_and_status_choices_come_from_the_registries():
    assert set(SEARCH_METHODS) == {*METHODS, "dual"}
    with pytest.raises(ValueError) as bad:
        check_method("nope")
    assert all(m in str(bad.value) for m in SEARCH_METHODS)
    assert set(get_args(tools.Method)) == set(SEARCH_METHODS)
    assert set(get_args(tools.Status)) == {str(s) for s in ConflictStatus}


def test_conflicts_list_help_names_every_status():
    ran = subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", "conflicts", "list", "--help"],
                         capture_output=True, text=True, env=dict(os.environ, COLUMNS="200"), timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert all(str(s) in ran.stdout for s in ConflictStatus), ran.stdout
