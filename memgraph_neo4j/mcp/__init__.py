"""The memory as an MCP server: `memgraph-neo4j mcp --space NAME` (stdio) or `--transport http`.

    from memgraph_neo4j.mcp import serve
    serve(["notes"], transport="stdio")
"""

from __future__ import annotations

from memgraph_neo4j.mcp.server import build_server, serve
from memgraph_neo4j.mcp.spaces import SpaceError, SpacePool

__all__ = ["SpaceError", "SpacePool", "build_server", "serve"]
