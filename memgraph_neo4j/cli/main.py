"""The `memgraph-neo4j` command.

Start-up is part of every one-shot command (`query` answers in well under a second once running), so
the command modules import what a command needs inside it: importing this module loads typer and rich,
not the driver, numpy, pandas or the embedding runtime (tests/unit/cli/test_cli_imports.py holds it).
`main` runs `query` from an app of that one command: importing the other command modules and building
typer's commands from all their signatures cost a one-shot query ~0.1 s (measured under load; `app`, the
whole command, is built on first use).
"""

from __future__ import annotations

import sys
from typing import Any

import typer

HELP = "Neo4j-native GraphRAG and agent memory (MemGraphRAG)."


def init() -> None:
    """Create constraints, vector and fulltext indexes (idempotent)."""
    from memgraph_neo4j.cli.output import error
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.memory.alias_keys import fold_alias_keys
    from memgraph_neo4j.memory.title_keys import backfill_title_keys
    from memgraph_neo4j.server.connection import open_store
    from memgraph_neo4j.store import StoreError

    settings = Settings()
    try:
        with open_store(settings) as store:
            names = store.init_schema(settings.embedding_dimension)
            keyed, _ = backfill_title_keys(store)  # passages written before their title key was stored
            folded = fold_alias_keys(store)  # entities written before their own name was their key
    except StoreError as exc:
        error(exc)
        raise typer.Exit(1)
    typer.echo(f"applied {len(names)} schema statements to {store.uri}" +
               (f"; stored the title key of {keyed} passages" if keyed else "") +
               (f"; moved {folded} entity names from Alias nodes to Entity.key" if folded else ""))


def full_app() -> typer.Typer:
    """Every command."""
    from memgraph_neo4j.cli import (
        analytics_cmd,
        categorise_cmd,
        conflicts_cmd,
        demo_cmd,
        documents_cmd,
        entities_cmd,
        eval_cmd,
        export_cmd,
        facts_cmd,
        mcp_cmd,
        memory_cmd,
        neo4j_cmd,
        query_cmd,
        serve_cmd,
        spaces_cmd,
    )

    app = typer.Typer(help=HELP, no_args_is_help=True)
    app.add_typer(neo4j_cmd.app, name="neo4j")
    app.add_typer(conflicts_cmd.app, name="conflicts")
    app.add_typer(spaces_cmd.app, name="spaces")
    app.add_typer(documents_cmd.app, name="documents")
    app.add_typer(entities_cmd.app, name="entities")
    app.command()(memory_cmd.ingest)
    app.command()(memory_cmd.stats)
    app.command()(query_cmd.query)
    app.command()(query_cmd.ask)
    app.command()(facts_cmd.facts)
    app.command()(facts_cmd.provenance)
    app.command()(categorise_cmd.categorise)
    app.command()(categorise_cmd.categories)
    app.command("eval")(eval_cmd.eval_command)
    app.command("health")(eval_cmd.health_command)
    app.command()(mcp_cmd.mcp)
    app.command()(serve_cmd.serve)
    app.command()(export_cmd.export)
    app.command()(analytics_cmd.analytics)
    app.command()(demo_cmd.demo)
    app.command()(init)
    return app


def query_app() -> typer.Typer:
    """The `query` command alone, as a command of a group like the whole app's (same usage and errors)."""
    from memgraph_neo4j.cli import query_cmd

    app = typer.Typer(help=HELP, no_args_is_help=True)
    app.command()(query_cmd.query)
    app.callback()(lambda: None)  # a group, as with every command: `query` stays a subcommand
    return app


def __getattr__(name: str) -> Any:
    if name == "app":  # the whole command (tests and the console script of older installs import it)
        globals()["app"] = built = full_app()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def quiet_driver() -> None:
    """The driver's own log lines (a defunct connection, ...) kept off stderr: a command that fails says
    so in one line of its own (the store's errors name the server and what to do)."""
    import logging

    logging.getLogger("neo4j").addHandler(logging.NullHandler())  # no handler: Python's last resort prints


def main() -> None:
    """The console script: `query` from its own app, every other command from the whole one. A bad
    setting (MEMGRAPH_*) ends any command with its one-line message and exit code 1, not a traceback."""
    quiet_driver()
    try:
        _run()
    except ValueError as exc:
        from memgraph_neo4j.config import SettingsError

        if not isinstance(exc, SettingsError):
            raise
        from memgraph_neo4j.cli.output import error

        error(exc)
        sys.exit(1)


def _run() -> None:
    if sys.argv[1:2] != ["query"]:
        full_app()()
        return
    from memgraph_neo4j.service.client import service_url

    if service_url():  # the memory service embeds the question: no model to build here
        query_app()()
        return
    from memgraph_neo4j.cli.embedder import minilm_ahead

    with minilm_ahead():  # the embedder builds while the command is parsed and the driver imported
        query_app()()


if __name__ == "__main__":
    main()
