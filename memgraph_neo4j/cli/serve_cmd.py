"""`memgraph-neo4j serve`: the memory service (REST under /v1, MCP at /mcp, /metrics, /healthz, /readyz)."""

from __future__ import annotations

from pathlib import Path

import typer

from memgraph_neo4j.cli.output import fail


def _listening(url: str, spaces: list[str], tokens: int, spool: Path) -> None:
    typer.echo(f"memgraph-neo4j service listening on {url} (REST {url}/v1, OpenAPI {url}/docs, MCP {url}/mcp; "
               f"spaces: {', '.join(spaces) or 'any'}; {tokens or 'no'} token(s); jobs in {spool}; "
               "Ctrl-C stops it)", err=True)


def serve(host: str | None = typer.Option(None, help="Address to listen on (default MEMGRAPH_SERVICE_HOST, else "
                                                     "127.0.0.1; any other needs tokens)"),
          port: int | None = typer.Option(None, min=1, max=65535, help="Port (default MEMGRAPH_SERVICE_PORT, else "
                                                                      "8770)"),
          space: list[str] = typer.Option([], "--space", help="Serve only these spaces (repeat); default any"),
          tokens: Path | None = typer.Option(None, "--tokens", envvar="MEMGRAPH_SERVICE_TOKENS_FILE",
                                             help="YAML file of bearer tokens with their spaces and rights "
                                                  "(docs/guides/service.md)"),
          extractor: str = typer.Option("offline", help="Extractor of the ingest jobs: offline | openai"),
          ppr_engine: str | None = typer.Option(None, "--ppr-engine", help="local | gds | client"),
          layer_search: str | None = typer.Option(None, "--layer-search", help="local | index"),
          mcp: bool = typer.Option(True, "--mcp/--no-mcp", help="Serve MCP over streamable HTTP at /mcp"),
          new_token: bool = typer.Option(False, "--new-token", help="Print a new bearer token and its sha256 (for "
                                                                    "--tokens), and exit")) -> None:
    """Serve the memory over HTTP: REST (OpenAPI at /docs), MCP at /mcp, Prometheus /metrics."""
    if new_token:
        from memgraph_neo4j.service.auth import new_token as make

        plain, digest = make()
        typer.echo(f"token:  {plain}\nsha256: {digest}")
        return
    from memgraph_neo4j.config import Settings
    from memgraph_neo4j.service.auth import TokenTable
    from memgraph_neo4j.service.run import make_service, run, service_dir
    from memgraph_neo4j.store import StoreError

    try:
        settings = Settings()
        table = TokenTable.load(str(tokens) if tokens else None)
        retrieval = settings.retrieval_config(ppr_engine=ppr_engine, layer_search=layer_search)
        service = make_service(settings, space, table, host, extractor, retrieval, mcp=mcp)
        run(service, port or settings.service_port,
            lambda url: _listening(url, space, len(table), service_dir(settings) / "jobs"))
    except (StoreError, ValueError) as exc:
        fail(" ".join(str(exc).split()))
    except KeyboardInterrupt:
        pass
