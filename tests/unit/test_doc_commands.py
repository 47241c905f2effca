"""Every `memgraph-neo4j` command in a shell block of the README and of the docs exists as written: each word
before the options names a command of the real app, and each option it passes is one of that command's (the
app's own click command, what `--help` prints, is the truth). Optional parts written `[--all]` are checked too."""

from __future__ import annotations

import re
import shlex

import pytest
import typer
from readme_blocks import blocks

from memgraph_neo4j.cli.main import full_app

SHELLS = {"bash", "sh", "shell"}
PROGRAM = re.compile(r"(?:^|(?<=[\s\"(]))(?:[\w.~-]*/)*memgraph-neo4j(?=\s|$)")
ENDS = re.compile(r"\s#|&&|;|\s\|\s|\)")  # a comment, the next command of the line, a $( ... ) closing


def invocations() -> list[tuple[str, list[str]]]:
    """(where, the words after the program) of each command in a shell block, continuation lines joined."""
    found = []
    for block in blocks(None):
        if block.language not in SHELLS:
            continue
        for offset, line in enumerate(block.code.replace("\\\n", " ").splitlines()):
            if line.lstrip().startswith("#"):
                continue
            for match in PROGRAM.finditer(line):
                rest = line[match.end():]
                end = ENDS.search(rest)
                words = shlex.split(rest[:end.start()] if end else rest)
                found.append((f"{block.where}+{offset}", [w.strip("[]") for w in words if w.strip("[]")]))
    return found


INVOCATIONS = invocations()
APP = typer.main.get_command(full_app())


def test_the_docs_run_the_command_line():
    assert len(INVOCATIONS) >= 40


def _is_group(command) -> bool:  # typer's commands are its own click's (typer._click): no isinstance
    return hasattr(command, "list_commands")


def _options(command) -> set[str]:
    names = {"--help"}
    for param in command.params:
        if param.param_type_name == "option":
            names.update(param.opts, param.secondary_opts)
    return names


def problem(words: list[str]) -> str | None:
    """What is wrong with `memgraph-neo4j WORDS`, or None."""
    command, path = APP, ["memgraph-neo4j"]
    while _is_group(command) and words and not words[0].startswith("-"):
        sub = command.get_command(typer.Context(command), words[0])
        if sub is None:
            return f"`{' '.join(path)}` has no command {words[0]!r}"
        command, path, words = sub, [*path, words[0]], words[1:]
    if _is_group(command):
        return f"`{' '.join(path)}` needs a command"
    unknown = [w for w in words if w.startswith("-") and w.split("=")[0] not in _options(command)]
    return f"`{' '.join(path)}` has no option {', '.join(unknown)}" if unknown else None


@pytest.mark.parametrize("where, words", INVOCATIONS, ids=[where for where, _ in INVOCATIONS])
def test_a_documented_command_and_its_options_exist(where, words):
    assert problem(words) is None, f"{where}: {problem(words)}"


@pytest.mark.parametrize("words, wrong", [
    (["query", "x", "--spaces", "demo"], "`memgraph-neo4j query` has no option --spaces"),
    (["conflicts", "approve", "ID"], "`memgraph-neo4j conflicts` has no command 'approve'"),
    (["neo4j"], "`memgraph-neo4j neo4j` needs a command"),
    (["neo4j", "logs", "-n", "100"], None),
    (["ingest", "chat.jsonl", "--no-conversation", "--price-input=0.15"], None),
])
def test_the_check_finds_what_does_not_exist(words, wrong):
    assert problem(words) == wrong


@pytest.mark.parametrize("line, words", [
    ('eval "$(memgraph-neo4j neo4j env)"   # export NEO4J_URI', ["neo4j", "env"]),
    (".venv/bin/memgraph-neo4j query \"a b\" --space demo [--json]  # note", ["query", "a b", "--space", "demo",
                                                                           "--json"]),
    ("x && memgraph-neo4j stats --space s; echo", ["stats", "--space", "s"]),
])
def test_commands_are_read_from_a_line(line, words, monkeypatch):
    from readme_blocks import Block

    monkeypatch.setattr(f"{__name__}.blocks", lambda language: [Block(1, "bash", line + "\n")])
    assert invocations() == [("README.md:1+0", words)]
