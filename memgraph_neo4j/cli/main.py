"""The `memgraph-neo4j` command."""

from __future__ import annotations

import typer

from memgraph_neo4j.cli import conflicts_cmd, eval_cmd, memory_cmd, neo4j_cmd, query_cmd
from memgraph_neo4j.cli.output import error
from memgraph_neo4j.config import Settings
from memgraph_neo4j.server.connection import open_store
from memgraph_neo4j.store import StoreError

app = typer.Typer(help="Neo4j-native GraphRAG and agent memory (MemGraphRAG).", no_args_is_help=True)
app.add_typer(neo4j_cmd.app, name="neo4j")
app.add_typer(conflicts_cmd.app, name="conflicts")
app.command()(memory_cmd.ingest)
app.command()(memory_cmd.stats)
app.command()(query_cmd.query)
app.command()(query_cmd.ask)
app.command("eval")(eval_cmd.eval_command)
app.command("health")(eval_cmd.health_command)


@app.command()
def init() -> None:
    """Create constraints, vector and fulltext indexes (idempotent)."""
    settings = Settings()
    try:
        with open_store(settings) as store:
            names = store.init_schema(settings.embedding_dimension)
    except StoreError as exc:
        error(exc)
        raise typer.Exit(1)
    typer.echo(f"applied {len(names)} schema statements to {store.uri}")


@app.command()
def demo(space: str = typer.Option("demo", help="Memory space for the sample")) -> None:
    """Main job on the embedded default: local Neo4j + GDS, schema, and a memory built from a bundled
    sample with the offline extractor and the offline MiniLM embeddings; prints what was built."""
    from importlib import resources

    from memgraph_neo4j.api import MemoryGraph

    neo4j_cmd.start(timeout=None)
    init()
    sample = resources.files("memgraph_neo4j.demo").joinpath("sample.md")
    with resources.as_file(sample) as path, MemoryGraph(space=space, extractor="offline") as memory:
        report = memory.ingest([path], progress=True)
    typer.echo(f"ingested {report.passages} passages: {report.facts} facts, {report.entities_new} new entities, "
               f"{report.promoted} schemas promoted, {report.bridges} similarity edges ({report.seconds:.1f}s)")
    memory_cmd.stats(space=space, as_json=False)
    typer.echo("\nExplore it in Neo4j Browser (login: `memgraph-neo4j neo4j env` prints the password):\n"
               f"  MATCH (f:Fact {{space: '{space}'}})-[:SUBJECT|OBJECT]->(e:Entity) RETURN f, e LIMIT 100")


if __name__ == "__main__":
    app()
