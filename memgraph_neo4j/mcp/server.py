"""`memgraph-neo4j mcp`: the memory as an MCP server (official `mcp` SDK, MCPServer), over stdio or
streamable HTTP.

Every failure reaches the client as a tool error with a one-line message: a bad argument, a space outside
the server's confinement, a missing fact or conflict, Neo4j not answering. Anything else is a crash: the
client gets the SDK's generic "Error executing tool NAME" and the traceback stays in the server's log.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import ToolAnnotations
from neo4j.exceptions import DriverError, Neo4jError
from pydantic import ValidationError

from memgraph_neo4j import __version__
from memgraph_neo4j.mcp.spaces import SpacePool
from memgraph_neo4j.mcp.tools import MemoryTools
from memgraph_neo4j.store import StoreError
from memgraph_neo4j.validation import SurfaceError, is_loopback

Transport = Literal["stdio", "http"]
NAME = "memgraph-neo4j"
# failures the tools anticipate: their message is the tool error (ConflictError, SpaceError are ValueErrors)
EXPECTED = (ValueError, StoreError, Neo4jError, DriverError)

INSTRUCTIONS = (
    "Long-term memory in a Neo4j knowledge graph. write_memory stores a text or a conversation (facts and "
    "entities are extracted, checked for conflicts, linked to their evidence); search_memory retrieves "
    "passages, facts and entities with their sources; get_provenance shows where a fact comes from; "
    "list_conflicts and resolve_conflict review contradictions. Spaces served: {spaces}."
)

DESCRIPTIONS = {
    "search_memory": "Search the memory for a question or keywords. Returns the best passages (text, score, "
                     "title, document), the facts that matched (id, text, score, state, evidence passages) and "
                     "the most relevant entities. Pass a fact id to get_provenance for its full evidence.",
    "write_memory": "Remember a text or a conversation (turns: [{speaker, text, time?}]). It is split into "
                    "passages; facts and entities are extracted, linked to their evidence and checked for "
                    "conflicts with what the memory holds. Writing the same content again adds nothing.",
    "get_provenance": "Where a fact comes from: its evidence passages (text, title, document), the schema it "
                      "instantiates (and whether that schema was promoted to stable), its state (pending, "
                      "active, or a verdict), lineage (extractor, model, versions) and the conflicts it is in.",
    "list_conflicts": "Contradictions the memory found between facts, newest first: type, status, the facts "
                      "involved (ids, texts, states, proposed verdicts). status=needs_review lists those "
                      "waiting for a decision.",
    "resolve_conflict": "Decide a conflict: accept (apply the proposed verdicts, or keep=FACT_ID to keep one "
                        "fact and discard the others), reject (not a conflict: undo and dismiss) or revert "
                        "(restore the facts exactly as before). Facts are never deleted; every verdict can be "
                        "reverted.",
}
READ_ONLY = {"search_memory", "get_provenance", "list_conflicts"}
# The remedies of validation.SurfaceError (its API_REMEDIES), as tools and arguments: an agent cannot run the CLI.
REMEDIES = {
    "list_conflicts": "list_conflicts returns the conflict ids",
    "list_facts": "search_memory and list_conflicts return fact ids",
    "list_documents": "write_memory and search_memory return document ids (doc_id)",
    "keep": "call resolve_conflict with action 'accept' and keep=FACT_ID (one of {facts})",
    "chat_model": "this server has no chat model (whoever runs it sets OPENAI_API_KEY or OPENAI_BASE_URL); "
                  "choose another method, e.g. hybrid",
}


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _invalid(exc: ValidationError) -> str:
    problems = [f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()]
    return "invalid arguments: " + "; ".join(problems)


class MemoryServer(MCPServer):
    """MCPServer whose tool errors are one line, and name the cause the client can act on."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(one_line(f"{name}: {_invalid(cause)}")) from None
            if isinstance(cause, SurfaceError):
                raise ToolError(one_line(f"{name}: {cause.worded(REMEDIES)}")) from None
            if isinstance(cause, EXPECTED) or not isinstance(exc, UnexpectedToolError):
                raise ToolError(one_line(f"{name}: {cause or exc}")) from None
            raise  # a crash: the SDK logs the traceback and sends only "Error executing tool NAME"


def build_server(pool: SpacePool) -> MemoryServer:
    spaces = ", ".join(pool.spaces)
    server = MemoryServer(NAME, version=__version__, instructions=INSTRUCTIONS.format(spaces=spaces),
                          log_level="WARNING")
    tools = MemoryTools(pool)
    for name, description in DESCRIPTIONS.items():
        annotations = ToolAnnotations(read_only_hint=name in READ_ONLY, destructive_hint=name == "resolve_conflict",
                                      idempotent_hint=name != "resolve_conflict", open_world_hint=False)
        server.add_tool(getattr(tools, name), name=name, annotations=annotations,
                        description=f"{description} Spaces: {spaces} (default {pool.default}).")
    return server


TOKEN_ENV = "MEMGRAPH_MCP_TOKEN"


loopback = is_loopback


def check_http_token(host: str, token: str | None) -> None:
    """ValueError when HTTP would serve beyond this machine without a bearer token: anyone who reaches the
    port could read and rewrite the memory."""
    if not token and not loopback(host):
        raise ValueError(f"--host {host} serves the memory beyond this machine: give a bearer token with --token "
                         f"or {TOKEN_ENV} (clients send `Authorization: Bearer TOKEN`), or listen on 127.0.0.1")


class BearerToken:
    """ASGI middleware: every HTTP request needs `Authorization: Bearer TOKEN` (constant-time compare)."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = b'{"error": "unauthorized: send Authorization: Bearer TOKEN"}'
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: MemoryServer, host: str, token: str | None) -> Any:
    app = server.streamable_http_app(host=host)
    return BearerToken(app, token) if token else app


def http_url(host: str, port: int) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/mcp"


def run_http(app: Any, host: str, port: int, on_listening: Callable[[str], None] | None = None) -> None:
    """uvicorn.run, and `on_listening(url)` once the socket is bound (a client can connect from then on)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and on_listening is not None:
                on_listening(http_url(host, port))

    try:
        Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()
    except KeyboardInterrupt:
        pass


def serve(spaces: Sequence[str], transport: Transport = "stdio", host: str = "127.0.0.1", port: int = 8765,
          pool: SpacePool | None = None, token: str | None = None,
          on_listening: Callable[[str], None] | None = None, **pool_options: Any) -> None:
    """Run until the client disconnects (stdio) or the process is stopped (http). `token`: the bearer
    token HTTP clients must send; required on an address other than loopback. `on_listening(url)`: HTTP,
    called once the port accepts connections."""
    if transport == "http":
        check_http_token(host, token)  # before connecting to anything
    pool = pool or SpacePool(spaces, **pool_options)
    try:
        server = build_server(pool)
        if transport == "stdio":
            server.run("stdio")
        elif transport == "http":
            run_http(http_app(server, host, token), host, port, on_listening)
        else:
            raise ValueError(f"transport {transport!r}: choose stdio or http")
    finally:
        pool.close()
