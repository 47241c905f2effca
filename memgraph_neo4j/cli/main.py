"""The `memgraph-neo4j` command."""

from __future__ import annotations

import typer
from rich.console import Console

from memgraph_neo4j.cli import neo4j_cmd
from memgraph_neo4j.settings import Settings
from memgraph_neo4j.store import GraphStore, StoreError

app = typer.Typer(help="Neo4j-native GraphRAG and agent memory (MemGraphRAG).", no_args_is_help=True)
app.add_typer(neo4j_cmd.app, name="neo4j")
err = Console(stderr=True)


@app.command()
def init() -> None:
    """Create constraints, vector and fulltext indexes (idempotent)."""
    settings = Settings()
    try:
        with GraphStore.connect(settings=settings) as store:
            names = store.init_schema(settings.embedding_dimension)
    except StoreError as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(1)
    typer.echo(f"applied {len(names)} schema statements to {store.uri}")


@app.command()
def demo() -> None:
    """Main job on the embedded default: start the local Neo4j + GDS, apply the schema, show status."""
    neo4j_cmd.start(timeout=None)
    init()


if __name__ == "__main__":
    app()
