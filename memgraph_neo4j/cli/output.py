"""What every command prints on failure: one line on stderr, the message shown as written (Rich would
read "[x]" in a message as markup), then exit code 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

err = Console(stderr=True)


def error(message: object) -> None:
    err.print(f"[red]error:[/red] {escape(str(message))}", highlight=False, soft_wrap=True)


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
