"""The command-line reference, written by typer's own Markdown generator (`typer ... utils docs`) from the
app `memgraph-neo4j` runs: every command, argument and option with its help and default."""

from __future__ import annotations

import re

import typer
from typer.cli import get_docs_for_click

NAME = "memgraph-neo4j"
INTRO = f"""\
Generated at every build from the `{NAME}` command itself (`memgraph_neo4j/cli/`), with typer's Markdown
generator: what `{NAME} COMMAND --help` prints. Settings that options fall back to are in
[Settings](settings.md); exit codes in [Troubleshooting](../troubleshooting.md#exit-codes).
"""


def _escaped(markdown: str) -> str:
    """Help texts are plain text: a `<` outside code would open an HTML tag and hide what follows."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced:
            parts = re.split(r"(`[^`]*`)", line)  # code spans stay as they are
            line = "".join(p if p.startswith("`") else p.replace("<", "&lt;") for p in parts)
        out.append(line)
    return "\n".join(out)


def markdown() -> str:
    from memgraph_neo4j.cli.main import full_app

    command = typer.main.get_command(full_app())
    docs = get_docs_for_click(obj=command, ctx=typer.Context(command, info_name=NAME), name=NAME,
                              title=f"Command line: `{NAME}`")
    head, _, rest = docs.partition("\n\n")
    return f"{head}\n\n{INTRO}\n{_escaped(rest).strip()}\n"
