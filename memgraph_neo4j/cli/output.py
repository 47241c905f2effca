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


def fail(message: object) -> None:
    error(message)
    raise typer.Exit(1)


def missing_space(space: str) -> str:
    return f"memory space {space!r} is empty or does not exist: check --space"


def read_space(space: str, read: Callable[[Any], dict]) -> dict:
    """`read(store)` on the configured server; a store error or an empty space ends the command."""
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            data = read(store)
    except StoreError as exc:
        fail(exc)
    if not data["nodes"]:
        fail(missing_space(space))
    return data
