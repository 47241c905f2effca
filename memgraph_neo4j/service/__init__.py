"""The memory service: `memgraph-neo4j serve` (REST under /v1, MCP at /mcp, /metrics, /healthz, /readyz).

Nothing is imported here: the CLI's client (service/client.py) must stay a standard-library import.
"""
