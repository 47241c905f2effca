"""What every command prints on failure: one line on stderr, the message shown as written (Rich would
read "[x]" in a message as markup), then exit code 1."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

err = Console(stderr=True)


def error(message: object) -> None:
    err.print(f"[red]error:[/red] {escape(str(message))}", highlight=False, soft_wrap=True)


def fail(message: object) -> None:
    error(message)
    raise typer.Exit(1)
