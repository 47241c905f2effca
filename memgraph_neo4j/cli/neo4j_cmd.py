"""`memgraph-neo4j neo4j start|stop|status|env|logs`: the local Neo4j + GDS server."""

from __future__ import annotations

import json
import time

import typer
from rich.console import Console

from memgraph_neo4j.cli.output import fail, stdout_console

app = typer.Typer(help="Run a local Neo4j + GDS assembled from Maven Central (no Docker needed).",
                  no_args_is_help=True)
err = Console(stderr=True)
out = stdout_console()


def print_status(info: dict) -> None:
    state = "[green]running[/green]" if info["running"] else "[yellow]stopped[/yellow]"
    if info["running"] and info.get("answering") is False:
        state = "[yellow]running, not answering yet (starting or stopping)[/yellow]"
    out.print(f"Neo4j        {info.get('neo4j_version')} ({info.get('edition', 'community')}) {state}"
              + (f" pid {info['pid']}" if info.get("pid") else ""))
    out.print(f"GDS          {info.get('gds_version')}")
    if info.get("java_version"):
        out.print(f"Java         {info['java_version']} ({info.get('java')})")
    out.print(f"Bolt         {info['bolt_uri']}")
    out.print(f"HTTP         {info['http_url']}")
    out.print(f"Browser      {info['browser_url']}")
    out.print(f"Instance     {info['instance']}")


@app.command()
def start(timeout: float = typer.Option(
        None, help="Seconds the start waits while Neo4j logs no progress (a recovery after a crash keeps it waiting)"),
) -> None:
    """Start the local server (assembling it on first use); returns once GDS answers."""
    from memgraph_neo4j.server.launcher import LauncherError, LocalNeo4j

    server = LocalNeo4j()
    began = time.monotonic()
    try:
        info = server.start(timeout=timeout, progress=lambda m: err.print(m, highlight=False))
    except LauncherError as exc:
        fail(exc)
    if info.get("already_running"):
        out.print(f"already running (pid {info['pid']})")
    else:
        out.print(f"started in {time.monotonic() - began:.1f}s")
    print_status(info)


@app.command()
def stop() -> None:
    """Stop the local server gracefully."""
    from memgraph_neo4j.server.launcher import LauncherError, LocalNeo4j

    try:
        stopped = LocalNeo4j().stop()
    except LauncherError as exc:
        fail(exc)
    out.print("stopped" if stopped else "not running")


@app.command()
def status(as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Neo4j, GDS and Java versions, URIs and the Browser URL."""
    from memgraph_neo4j.server.launcher import LocalNeo4j

    info = LocalNeo4j().status()
    if as_json:
        typer.echo(json.dumps(info, indent=2))
    else:
        print_status(info)
    if not info["running"]:
        raise typer.Exit(3)


@app.command()
def env() -> None:
    """Print `export NEO4J_URI=… NEO4J_USERNAME=… NEO4J_PASSWORD=…` (use with eval)."""
    from memgraph_neo4j.server.launcher import LauncherError, LocalNeo4j

    try:
        typer.echo(LocalNeo4j().env_exports())
    except LauncherError as exc:
        fail(exc)


@app.command()
def logs(lines: int = typer.Option(50, "-n", help="Lines to show"),
         debug: bool = typer.Option(False, help="Show debug.log instead of neo4j.log")) -> None:
    """Tail of the server log."""
    from memgraph_neo4j.server.launcher import LocalNeo4j, tail

    server = LocalNeo4j()
    path = server.log_file.with_name("debug.log") if debug else server.log_file
    typer.echo(tail(path, lines))
