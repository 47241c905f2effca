"""What every command prints on failure: one line on stderr, the message shown as written (Rich would
read "[x]" in a message as markup), then exit code 1; and the console that prints to stdout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape

from memgraph_neo4j.validation import SurfaceError

err = Console(stderr=True)
PIPED_WIDTH = 10_000  # columns of stdout when it is no terminal: a row of a table stays on one line


class StdoutConsole(Console):
    """A console that lays tables out at the terminal's width, and, when stdout is a pipe or a file, as wide
    as their rows (Rich would wrap them at 80 columns, breaking ids across lines). Decided at each print:
    typer's CliRunner swaps stdout after the module made its console."""

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        return size if self.is_terminal or self._width is not None else ConsoleDimensions(PIPED_WIDTH, size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)


def stdout_console(**options: Any) -> Console:
    return StdoutConsole(**options)


# The remedies of validation.SurfaceError (its API_REMEDIES), as commands of this CLI.
REMEDIES = {
    "list_conflicts": "list them with `memgraph-neo4j conflicts list --space {space}`",
    "list_facts": "`memgraph-neo4j conflicts list --space {space}`, `facts --space {space}` and `query --json` "
                  "show fact ids",
    "list_documents": "list them with `memgraph-neo4j documents list --space {space}`",
    "keep": "accept it with --keep FACT_ID (one of {facts})",
    "chat_model": "set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server; the model is "
                  "MEMGRAPH_LLM_MODEL), or choose another method (--method hybrid)",
}


def error(message: object) -> None:
    text = message.worded(REMEDIES) if isinstance(message, SurfaceError) else str(message)
    err.print(f"[red]error:[/red] {escape(text)}", highlight=False, soft_wrap=True)


def warning(message: object) -> None:
    err.print(f"[yellow]warning:[/yellow] {escape(str(message))}", highlight=False, soft_wrap=True)


def fail(message: object) -> None:
    error(message)
    raise typer.Exit(1)


SPACES_SHOWN = 20  # names a missing-space error lists before "and N more"


def space_names(store: Any = None) -> list[str] | None:
    """The memory spaces of the database (None when they cannot be read: the error is about a space,
    not about this listing)."""
    from memgraph_neo4j.repository.documents import list_spaces
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        if store is not None:
            return [s.name for s in list_spaces(store)]
        with open_store() as opened:
            return [s.name for s in list_spaces(opened)]
    except (StoreError, OSError):
        return None


def missing_space(space: str, spaces: list[str] | None = None) -> str:
    """A space that holds nothing (no documents), naming the spaces that exist; `spaces` read from the
    configured server when not given."""
    spaces = space_names() if spaces is None else spaces
    if spaces is None:
        return f"memory space {space!r} is empty or does not exist: check --space"
    if space in spaces:
        return (f"memory space {space!r} is empty: it holds no documents (all retracted?); "
                "ingest into it or check --space")
    shown = ", ".join(spaces[:SPACES_SHOWN]) or "none yet"
    if len(spaces) > SPACES_SHOWN:
        shown += f" and {len(spaces) - SPACES_SHOWN} more (memgraph-neo4j spaces list)"
    return f"memory space {space!r} is empty or does not exist; spaces: {shown}"


def read_space(space: str, read: Callable[[Any], dict]) -> dict:
    """`read(store)` on the configured server; a store error or an empty space ends the command."""
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    names = None
    try:
        with open_store() as store:
            data = read(store)
            if not data["nodes"]:
                names = space_names(store)
    except StoreError as exc:
        fail(exc)
    if not data["nodes"]:
        fail(missing_space(space, names))
    return data


def checked(report: Any, what: str = "conflicts checked") -> None:
    """The conflict check a retraction or an unmerge ran afterwards (an AdjudicationReport, or None)."""
    if report is not None and report.scanned:
        typer.echo(f"{what}: {report.scanned} facts, {report.conflicts} conflicts "
                   f"({report.resolved} resolved, {report.needs_review} to review)")
