"""The console script `memgraph-neo4j`. With MEMGRAPH_SERVICE_URL set, `query` goes to the memory service in
the standard library alone (cli/remote_query.py: Python's start and one request); everything else, and a
query without a service, runs the typer app (cli/main.py)."""

from __future__ import annotations

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["query"] and os.environ.get("MEMGRAPH_SERVICE_URL", "").strip():
        from memgraph_neo4j.cli import remote_query
        from memgraph_neo4j.service.client import ServiceClient

        client = ServiceClient.from_environment()
        if client is not None and remote_query.can_handle(sys.argv[2:]):
            sys.exit(remote_query.run(sys.argv[2:], client))
    from memgraph_neo4j.cli.main import main as full

    full()


if __name__ == "__main__":
    main()
