"""`memgraph-neo4j analytics NAME`: one query of the Cypher analytics pack (cypher/analytics/) as a table."""

from __future__ import annotations

import json

import typer
from rich.table import Table
from rich.text import Text

from memgraph_neo4j.cli.output import fail, missing_space, stdout_console

out = stdout_console()


def _cell(value: object) -> Text:
    """Plain text (names may hold brackets Rich would read as markup); floats to 4 significant digits."""
    if isinstance(value, float):
        return Text(f"{value:.4g}")
    return Text("" if value is None else str(value))


def analytics(
    name: str | None = typer.Argument(None, help="Query name; leave out to list the queries"),
    space: str = typer.Option("default", help="Memory space"),
    limit: int = typer.Option(50, min=1, help="At most this many rows (rankings and lists)"),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output"),
) -> None:
    """Schema frequencies, promotion history, entity degree and PageRank, facts per passage, conflict
    statistics, facts without evidence: the queries of cypher/analytics/, run on one space."""
    from memgraph_neo4j.repository.analytics import QUERIES, AnalyticsRepository
    from memgraph_neo4j.repository.stats import StatsRepository
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    if name is None:
        for query in QUERIES.values():
            typer.echo(f"{query.name:24} {query.purpose}")
        return
    if name not in QUERIES:
        fail(f"no analytics query {name!r}; choose one of: {', '.join(QUERIES)}")
    try:
        with open_store() as store:
            if not StatsRepository(store, space).exists():
                fail(missing_space(space))
            rows = AnalyticsRepository(store, space).run(name, limit)
    except StoreError as exc:
        fail(exc)
    if as_json:
        typer.echo(json.dumps(rows, indent=2, default=str))
        return
    table = Table(title=Text(f"{name} of space {space!r}"), caption=Text(QUERIES[name].purpose))
    for column in rows[0] if rows else ["(no rows)"]:
        table.add_column(column)
    for row in rows:
        table.add_row(*(_cell(v) for v in row.values()))
    out.print(table)
