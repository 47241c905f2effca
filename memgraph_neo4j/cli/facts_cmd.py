"""`memgraph-neo4j facts`: the facts of one space valid at a time (`MemoryGraph.facts`)."""

from __future__ import annotations

import dataclasses
import json

import typer
from rich.table import Table
from rich.text import Text

from memgraph_neo4j.cli.output import fail, missing_space, stdout_console

out = stdout_console()


def _day(value) -> str:
    return "" if value is None else value.date().isoformat()


def facts(
    space: str = typer.Option("default", help="Memory space"),
    as_of: str | None = typer.Option(None, "--as-of", help="A date or time ('1977', 'May 1979', '2024-03-01'); "
                                                         "default: the facts valid now"),
    relation: str | None = typer.Option(None, help="Only this relation (e.g. headquartered_in)"),
    limit: int = typer.Option(1000, min=1, help="At most this many facts"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Facts valid at a time, from documents and conversations: valid_at <= as-of < invalid_at."""
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            memory = MemoryGraph(space=space, store=store, embedder=None)  # no embedding: a listing
            if not memory.exists():
                fail(missing_space(space))
            found = memory.facts(as_of=as_of, relation=relation, limit=limit)
    except (StoreError, ValueError) as exc:
        fail(exc)
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(f) for f in found], indent=2, default=str))
        return
    title = f"facts of space {space!r}" + (f" as of {as_of}" if as_of else " valid now")
    table = Table(title=Text(title))
    for column in ("fact", "valid from", "invalid from", "id"):
        table.add_column(column)
    for f in found:
        table.add_row(Text(f.text), Text(_day(f.valid_at)), Text(_day(f.invalid_at)), Text(f.id))
    out.print(table)
