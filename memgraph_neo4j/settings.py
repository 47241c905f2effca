"""Settings from the environment (prefix MEMGRAPH_); NEO4J_URI/USERNAME/PASSWORD override the local server."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return platformdirs.user_data_path("memgraph-neo4j", appauthor=False)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEMGRAPH_", extra="ignore")

    # Local Neo4j launcher
    home: Path = Field(default_factory=_default_home, description="Per-user data dir: assembled Neo4j, data, logs")
    instance: Path | None = Field(default=None, description="Instance dir (conf, data, logs); default home/instance")
    bolt_port: int = 7687
    http_port: int = 7474
    heap: str = "1g"
    pagecache: str = "512m"
    start_timeout: float = 180.0
    # Connection (NEO4J_* environment variables take precedence, see connection())
    database: str = "neo4j"
    # Embeddings
    embedding_dimension: int = 384
    # Chat model for `ask` and the openai extractor (OPENAI_API_KEY / OPENAI_BASE_URL as usual)
    llm_model: str = "gpt-4o-mini"
    # Personalised PageRank: "gds" (gds.pageRank.stream), "local" (same iteration in process on an
    # exported copy of the projection; pays ~1 s per memory version, then ~7 ms per query) or
    # "client" (through the graphdatascience client)
    ppr_engine: str = "gds"
    # Top-K facts, schemas and passages: "index" (the Neo4j vector indexes) or "local" (exact, in
    # process over the space's vectors; reads them once per memory version, then ~3 ms per query)
    layer_search: str = "index"


class Connection(BaseSettings):
    """Where the library connects. Environment NEO4J_URI/NEO4J_USERNAME/NEO4J_PASSWORD override all."""

    model_config = SettingsConfigDict(extra="ignore")

    uri: str
    username: str = "neo4j"
    password: str
    database: str = "neo4j"


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
    from memgraph_neo4j.server.launcher import LocalNeo4j

    local = LocalNeo4j(settings)
    return Connection(uri=local.bolt_uri, username="neo4j", password=local.password(), database=database)
