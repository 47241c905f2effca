"""`memgraph-neo4j mcp`: serve memory spaces to MCP clients (Claude Desktop, IDEs, agents)."""

from __future__ import annotations

import typer

from memgraph_neo4j.cli.output import fail

ENGINE_HELP = "local | gds | client (default MEMGRAPH_PPR_ENGINE, else local)"
LAYERS_HELP = ("local | index: top-K exact in process or from the Neo4j indexes (default MEMGRAPH_LAYER_SEARCH, "
               "else local)")


def _listening(url: str, spaces: list[str]) -> None:
    """The one line a person (or a script waiting for the port) reads: stdout stays silent, as on stdio."""
    typer.echo(f"memgraph-neo4j MCP server listening on {url} (streamable HTTP; spaces: {', '.join(spaces)}; "
               "Ctrl-C stops it)", err=True)


def mcp(space: list[str] = typer.Option(["default"], "--space", help="Memory space to serve (repeat for more; "
                                        "the first is the default). Calls naming any other space fail."),
        transport: str = typer.Option("stdio", help="stdio (the client starts this command) | http "
                                      "(streamable HTTP at http://HOST:PORT/mcp)"),
        host: str = typer.Option("127.0.0.1", help="HTTP: address to listen on"),
        port: int = typer.Option(8765, min=1, max=65535, help="HTTP: port to listen on"),
        token: str | None = typer.Option(None, envvar="MEMGRAPH_MCP_TOKEN", show_envvar=True,
                                         help="HTTP: bearer token every request must carry (required when --host "
                                              "is not a loopback address; prefer the environment: an option shows "
                                              "in ps)"),
        extractor: str = typer.Option("offline", help="Extractor of write_memory: offline (no LLM) | openai "
                                      "(OPENAI_API_KEY, MEMGRAPH_LLM_MODEL)"),
        ppr_engine: str | None = typer.Option(None, "--ppr-engine", help=ENGINE_HELP),
        layer_search: str | None = typer.Option(None, "--layer-search", help=LAYERS_HELP)) -> None:
    """Serve the memory over MCP: search_memory, write_memory, get_provenance, list_conflicts, resolve_conflict."""
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.store import StoreError

    try:
        from memgraph_neo4j.mcp import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise
        fail("the MCP server needs the mcp package: pip install 'memgraph-neo4j[mcp]'")
    if transport not in ("stdio", "http"):
        raise typer.BadParameter(f"{transport!r}: choose stdio or http", param_hint="--transport")
    try:
        settings = Settings()
        retrieval = settings.retrieval_config(ppr_engine=ppr_engine, layer_search=layer_search)
        serve(space, transport=transport, host=host, port=port, settings=settings, extractor=extractor,
              retrieval=retrieval, token=token or None, on_listening=lambda url: _listening(url, space))
    except (StoreError, ValueError) as exc:  # stdout belongs to the protocol: the error goes to stderr
        fail(" ".join(str(exc).split()))  # one line, also when the driver's message has several
    except KeyboardInterrupt:
        pass
