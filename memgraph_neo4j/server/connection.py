"""Where the program connects: NEO4J_URI / NEO4J_USERNAME / NEO4J_PASSWORD (and NEO4J_DATABASE) when
set, so Docker, Aura and clusters work; otherwise the local server this package launches."""

from __future__ import annotations

import os

from memgraph_neo4j.config import Connection, Settings
from memgraph_neo4j.server.launcher import LocalNeo4j
from memgraph_neo4j.store import GraphStore


def connection(settings: Settings | None = None) -> Connection:
    """The environment if NEO4J_URI is set, else the local launcher's server."""
    settings = settings or Settings()
    database = os.environ.get("NEO4J_DATABASE", settings.database)
    if os.environ.get("NEO4J_URI"):
        return Connection(
            uri=os.environ["NEO4J_URI"],
            username=os.environ.get("NEO4J_USERNAME", "neo4j"),
            password=os.environ.get("NEO4J_PASSWORD", ""),
            database=database,
        )
    local = LocalNeo4j(settings)
    return Connection(uri=local.bolt_uri, username="neo4j", password=local.password(), database=database)


def open_store(settings: Settings | None = None, verify: bool = True) -> GraphStore:
    """A verified store on `connection(settings)`."""
    return GraphStore.connect(connection(settings), verify=verify)
