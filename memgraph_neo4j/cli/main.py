"""The `memgraph-neo4j` command.

Start-up is part of every one-shot command (`query` answers in well under a second once running), so
the command modules import what a command needs inside it: importing this module loads typer and rich,
not the driver, numpy, pandas or the embedding runtime (tests/unit/cli/test_cli_imports.py holds it)."""

from __future__ import annotations

import typer

from memgraph_neo4j.cli import (
    analytics_cmd,
    conflicts_cmd,
    demo_cmd,
    documents_cmd,
    eval_cmd,
    export_cmd,
    mcp_cmd,
    memory_cmd,
    neo4j_cmd,
    query_cmd,
    spaces_cmd,
)
from memgraph_neo4j.cli.output import error

app = typer.Typer(help="Neo4j-native GraphRAG and agent memory (MemGraphRAG).", no_args_is_help=True)
app.add_typer(neo4j_cmd.app, name="neo4j")
app.add_typer(conflicts_cmd.app, name="conflicts")
app.add_typer(spaces_cmd.app, name="spaces")
app.add_typer(documents_cmd.app, name="documents")
app.command()(memory_cmd.ingest)
app.command()(memory_cmd.stats)
app.command()(query_cmd.query)
app.command()(query_cmd.ask)
app.command("eval")(eval_cmd.eval_command)
app.command("health")(eval_cmd.health_command)
app.command()(mcp_cmd.mcp)
app.command()(export_cmd.export)
app.command()(analytics_cmd.analytics)
app.command()(demo_cmd.demo)


@app.command()
def init() -> None:
    """Create constraints, vector and fulltext indexes (idempotent)."""
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.memory.title_keys import backfill_title_keys
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    settings = Settings()
    try:
        with open_store(settings) as store:
            names = store.init_schema(settings.embedding_dimension)
            keyed, _ = backfill_title_keys(store)  # passages written before their title key was stored
    except StoreError as exc:
        error(exc)
        raise typer.Exit(1)
    typer.echo(f"applied {len(names)} schema statements to {store.uri}" +
               (f"; stored the title key of {keyed} passages" if keyed else ""))


if __name__ == "__main__":
    app()
