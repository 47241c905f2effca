"""`memgraph-neo4j spaces list|delete`: the memory spaces of the database."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import typer
from rich.table import Table

from memgraph_neo4j.cli.output import fail, missing_space, stdout_console

app = typer.Typer(help="Memory spaces: list them, delete one.", no_args_is_help=True)
out = stdout_console()


def with_store(work: Callable[[Any], Any]) -> Any:
    """`work(store)` on the configured server; a store error ends the command with one line."""
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    try:
        with open_store() as store:
            return work(store)
    except StoreError as exc:
        fail(exc)


@app.command("list")
def list_command(as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Every memory space with its documents, passages, facts (any state) and entities."""
    from memgraph_neo4j.repository.documents import list_spaces

    spaces = with_store(list_spaces)
    if as_json:
        typer.echo(json.dumps([dataclasses.asdict(s) for s in spaces], indent=2))
        return
    if not spaces:
        typer.echo("no memory spaces yet: `memgraph-neo4j ingest PATH --space NAME` makes one")
        return
    table = Table(title="memory spaces")
    for column in ("space", "documents", "passages", "facts", "entities"):
        table.add_column(column, justify="left" if column == "space" else "right")
    for s in spaces:
        table.add_row(s.name + (" (deleting)" if s.deleting else ""), str(s.documents), str(s.passages),
                      str(s.facts), str(s.entities))
    out.print(table)


@app.command("delete")
def delete_command(name: str = typer.Argument(..., help="The space to delete"),
                   yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation")) -> None:
    """Delete a memory space: every node and relationship it holds, and its PPR projections. Waits for a
    running ingest of the space first (an ingest started meanwhile waits for the delete); a delete that
    stopped half-way is finished by running it again."""
    from memgraph_neo4j.config import RetrievalConfig
    from memgraph_neo4j.memory.lease import delete_space
    from memgraph_neo4j.repository.documents import list_spaces
    from memgraph_neo4j.retrieval.persisted import forget_space
    from memgraph_neo4j.retrieval.projection import space_graphs

    def run(store: Any) -> tuple[Any, Any]:
        spaces = {s.name: s for s in list_spaces(store)}
        if name not in spaces:
            fail(missing_space(name, list(spaces)))
        s = spaces[name]
        if not yes:
            typer.confirm(f"delete memory space {name!r} ({s.documents} documents, {s.passages} passages, "
                          f"{s.facts} facts, {s.entities} entities)? This cannot be undone", abort=True)
        # the waiting line goes to stderr
        lease = delete_space(store, name, space_graphs(name),
                             say=lambda line: typer.echo(line, err=True))
        forget_space(RetrievalConfig(), store, name)  # the search copies kept on disk for it
        return s, lease

    deleted, lease = with_store(run)
    graphs = lease.dropped
    typer.echo(f"deleted memory space {name!r}: {deleted.documents} documents, {deleted.passages} passages, "
               f"{deleted.facts} facts, {deleted.entities} entities"
               + (" and what the ingest it waited for added" if lease.told is not None else "")
               + (f"; dropped {len(graphs)} PPR projections" if graphs else ""))
