"""Bearer tokens scoped per space and per right (memgraph_neo4j/service/auth.py), through a tiny FastAPI app.
No Neo4j: the routes only answer who asked."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi import APIRouter, Depends, FastAPI, Request  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from memgraph_neo4j.service import auth  # noqa: E402
from memgraph_neo4j.service.auth import OPEN, BearerForMount, Grant, Right, TokenTable, requires  # noqa: E402

READER, WRITER, ADMIN, DOCS_WRITER = ("reader-token-0123456789", "writer-token-0123456789",
                                      "admin-token-01234567890", "docs-writer-token-012345")


def tokens_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "tokens.yaml"
    path.write_text(body)
    return path


def full_table(tmp_path: Path) -> TokenTable:
    return TokenTable.from_file(tokens_file(tmp_path, f"""
tokens:
  - name: reader
    sha256: {auth.hash_token(READER)}
    spaces: ["*"]
    rights: [read]
  - name: writer
    token: {WRITER}
    spaces: ["*"]
    rights: [write]
  - name: boss
    sha256: {auth.hash_token(ADMIN).upper()}
    spaces: ["*"]
    rights: [admin]
  - name: docs-writer
    token: {DOCS_WRITER}
    spaces: [docs]
    rights: [read, write]
"""))


async def mounted(scope, receive, send):  # a stand-in for the MCP's ASGI app
    grant = scope.get("state", {}).get("grant")
    body = json.dumps({"mcp": True, "grant": grant.name if grant else None}).encode()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


def make_app(table: TokenTable) -> FastAPI:
    app = FastAPI()
    app.state.tokens = table

    @app.get("/v1/spaces/{space}/search")
    def search(space: str, request: Request, grant: Grant = Depends(requires(Right.READ))):
        assert request.state.grant is grant
        return {"space": space, "grant": grant.name}

    one_space, v1 = APIRouter(prefix="/spaces/{space}"), APIRouter(prefix="/v1")  # {space} from a prefix

    @one_space.post("/documents")
    def add(space: str, grant: Grant = Depends(requires(Right.WRITE))):
        return {"space": space, "grant": grant.name}

    v1.include_router(one_space)
    app.include_router(v1)

    @app.get("/v1/spaces")
    def spaces(grant: Grant = Depends(requires(Right.READ))):
        return [s for s in ("docs", "notes") if grant.sees(s)]

    @app.delete("/v1/spaces")
    def drop(grant: Grant = Depends(requires(Right.ADMIN))):
        return {"grant": grant.name}

    app.mount("/mcp", BearerForMount(mounted, table))
    return app


def call(client: TestClient, method: str, path: str, token: str | None = None):
    return client.request(method, path, headers={"Authorization": f"Bearer {token}"} if token else {})


def test_token_file_gives_each_token_its_spaces_and_rights(tmp_path):
    table = full_table(tmp_path)
    assert len(table) == 4 and not table.empty
    assert [g.name for g in table.grants] == ["reader", "writer", "boss", "docs-writer"]
    assert table.grant_for(READER) == Grant("reader", None, frozenset({Right.READ}))
    assert table.grant_for(DOCS_WRITER) == Grant("docs-writer", frozenset({"docs"}), frozenset({Right.READ,
                                                                                                 Right.WRITE}))
    assert table.grant_for(ADMIN).name == "boss"  # upper-case hex is accepted
    assert table.grant_for(READER + "x") is None and table.grant_for("") is None


def test_rights_hierarchy():
    admin, write, read = (Grant(r, None, frozenset({Right(r)})) for r in ("admin", "write", "read"))
    assert [admin.allows("s", r) for r in Right] == [True, True, True]
    assert [write.allows("s", r) for r in Right] == [True, True, False]
    assert [read.allows("s", r) for r in Right] == [True, False, False]
    scoped = Grant("scoped", frozenset({"docs"}), frozenset({Right.WRITE}))
    assert scoped.allows("docs", Right.READ) and not scoped.allows("notes", Right.READ)
    assert scoped.allows(None, Right.WRITE) and not scoped.allows(None, Right.ADMIN)  # no single space
    assert OPEN.allows("anything", Right.ADMIN)


@pytest.mark.parametrize(("entry", "fragment"), [
    ("{name: x, token: 0123456789abcdefXYZ, spaces: [a], rights: [read, delete]}", "unknown right(s) 'delete'"),
    ("{name: x, token: 0123456789abcdefXYZ, rights: [read]}", "give `spaces`"),
    ("{name: x, token: 0123456789abcdefXYZ, spaces: [], rights: [read]}", "give `spaces`"),
    ("{name: x, token: 0123456789abcdefXYZ, spaces: ['*', a], rights: [read]}", "mixes \"*\" with names"),
    ("{name: x, token: 0123456789abcdefXYZ, spaces: [a]}", "give `rights`"),
    (f"{{name: x, token: 0123456789abcdefXYZ, sha256: {'a' * 64}, spaces: [a], rights: [read]}}",
     "exactly one of `sha256`"),
    ("{name: x, spaces: [a], rights: [read]}", "exactly one of `sha256`"),
    ("{name: x, token: short, spaces: [a], rights: [read]}", "at least 16 characters"),
    (f"{{name: x, sha256: {'g' * 64}, spaces: [a], rights: [read]}}", "64 hex digits"),
    (f"{{name: x, sha256: {'a' * 63}, spaces: [a], rights: [read]}}", "64 hex digits"),
    ("{name: x, token: 0123456789abcdefXYZ, spaces: [a], rights: [read], note: hi}", "unknown field(s) note"),
    ("{name: reader, token: 0123456789abcdefXYZ, spaces: [a], rights: [read]}", "the name 'reader' is taken"),
    (f"{{name: x, token: {READER}, spaces: [a], rights: [read]}}", "the same token as another entry"),
])
def test_each_bad_entry_names_the_file_the_entry_and_the_fix(tmp_path, entry, fragment):
    good = f"{{name: reader, sha256: {auth.hash_token(READER)}, spaces: ['*'], rights: [read]}}"
    path = tokens_file(tmp_path, f"tokens:\n  - {good}\n  - {entry}\n")
    with pytest.raises(ValueError) as err:
        TokenTable.from_file(path)
    message = str(err.value)
    assert str(path) in message and "tokens[1]" in message and fragment in message
    assert "('x')" in message or "('reader')" in message


@pytest.mark.parametrize(("body", "fragment"), [
    ("tokens: []\n", "non-empty list under `tokens:`"),
    ("users: [a]\n", "non-empty list under `tokens:`"),
    ("tokens: [\n", "not valid YAML"),
    ("tokens:\n  - just-a-string\n", "tokens[0]: write a mapping"),
    ("tokens:\n  - {token: 0123456789abcdefXYZ, spaces: [a], rights: [read]}\n", "tokens[0]: give a `name`"),
])
def test_a_bad_file_names_itself(tmp_path, body, fragment):
    path = tokens_file(tmp_path, body)
    with pytest.raises(ValueError, match="tokens file") as err:
        TokenTable.from_file(path)
    assert str(path) in str(err.value) and fragment in str(err.value)
    with pytest.raises(ValueError, match="cannot read"):
        TokenTable.from_file(tmp_path / "missing.yaml")


def test_env_token_is_one_admin_over_every_space_and_combines_with_a_file(tmp_path):
    env = TokenTable.from_env({"MEMGRAPH_SERVICE_TOKEN": ADMIN})
    assert env.grants == (Grant("env", None, frozenset({Right.ADMIN})),)
    assert TokenTable.from_env({}).empty
    path = tokens_file(tmp_path, f"tokens:\n  - {{name: reader, token: {READER}, spaces: [docs], rights: [read]}}\n")
    from_env_file = TokenTable.from_env({"MEMGRAPH_SERVICE_TOKENS_FILE": str(path)})
    assert [g.name for g in from_env_file.grants] == ["reader"]
    both = TokenTable.load(str(path), {"MEMGRAPH_SERVICE_TOKEN": ADMIN,
                                       "MEMGRAPH_SERVICE_TOKENS_FILE": str(tmp_path / "ignored.yaml")})
    assert both.grant_for(READER).name == "reader" and both.grant_for(ADMIN).name == "env"  # --tokens wins
    with pytest.raises(ValueError, match="MEMGRAPH_SERVICE_TOKEN: a token of at least 16"):
        TokenTable.from_env({"MEMGRAPH_SERVICE_TOKEN": "short"})
    with pytest.raises(ValueError, match="MEMGRAPH_SERVICE_TOKEN: the same token as another entry"):
        TokenTable.load(str(path), {"MEMGRAPH_SERVICE_TOKEN": READER})


def test_new_token_and_its_hash_work_in_a_file(tmp_path):
    token, digest = auth.new_token()
    assert len(token) >= 40 and digest == hashlib.sha256(token.encode()).hexdigest() == auth.hash_token(token)
    assert auth.new_token()[0] != token
    path = tokens_file(tmp_path, f"tokens:\n  - {{name: cli, sha256: {digest}, spaces: ['*'], rights: [admin]}}\n")
    assert TokenTable.from_file(path).grant_for(token).name == "cli"


def test_every_entry_is_compared_whether_or_not_one_matches(tmp_path, monkeypatch):
    table, calls = full_table(tmp_path), []
    real = hmac.compare_digest
    monkeypatch.setattr(auth.hmac, "compare_digest", lambda a, b: calls.append(1) or real(a, b))
    for token, name in ((READER, "reader"), (DOCS_WRITER, "docs-writer"), ("not-a-token-at-all-123", None)):
        calls.clear()
        grant = table.grant_for(token)
        assert (grant.name if grant else None) == name and len(calls) == len(table)


def test_rights_per_route(tmp_path):
    client = TestClient(make_app(full_table(tmp_path)))
    expect = {  # token -> (search, add document, delete spaces)
        READER: (200, 403, 403), WRITER: (200, 200, 403), ADMIN: (200, 200, 200), DOCS_WRITER: (200, 200, 403)}
    for token, codes in expect.items():
        got = (call(client, "GET", "/v1/spaces/docs/search", token).status_code,
               call(client, "POST", "/v1/spaces/docs/documents", token).status_code,
               call(client, "DELETE", "/v1/spaces", token).status_code)
        assert got == codes, token
    answer = call(client, "POST", "/v1/spaces/docs/documents", READER)
    assert answer.json() == {"detail": "token 'reader' may not write space 'docs': it has read on every space"}
    answer = call(client, "DELETE", "/v1/spaces", WRITER)
    assert answer.json() == {"detail": "token 'writer' may not admin: it has write on every space"}
    assert call(client, "GET", "/v1/spaces/docs/search", WRITER).json() == {"space": "docs", "grant": "writer"}


def test_a_token_sees_only_its_spaces(tmp_path):
    client = TestClient(make_app(full_table(tmp_path)))
    assert call(client, "POST", "/v1/spaces/docs/documents", DOCS_WRITER).json()["grant"] == "docs-writer"
    denied = call(client, "GET", "/v1/spaces/notes/search", DOCS_WRITER)
    assert denied.status_code == 403
    assert denied.json()["detail"] == "token 'docs-writer' may not read space 'notes': it has read, write on docs"
    assert call(client, "GET", "/v1/spaces", DOCS_WRITER).json() == ["docs"]  # listing filtered by sees()
    assert call(client, "GET", "/v1/spaces", READER).json() == ["docs", "notes"]


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer ", "Basic cmVhZGVyOnB3", "Bearer wrong-token-0123456789",
                                    f"Token {READER}"])
def test_no_known_token_is_401_with_www_authenticate(tmp_path, header):
    client = TestClient(make_app(full_table(tmp_path)))
    for method, path in (("GET", "/v1/spaces/docs/search"), ("POST", "/v1/spaces/docs/documents"),
                         ("GET", "/mcp/x")):
        answer = client.request(method, path, headers={"Authorization": header} if header else {})
        assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"
        assert answer.json() == {"detail": "unauthorized: send Authorization: Bearer TOKEN"}
    assert client.get("/v1/spaces/docs/search", headers={"Authorization": f"bearer {READER}"}).status_code == 200


def test_an_empty_table_is_an_open_service():
    client = TestClient(make_app(TokenTable()))
    assert client.get("/v1/spaces/docs/search").json() == {"space": "docs", "grant": "open"}
    assert client.post("/v1/spaces/notes/documents").status_code == 200
    assert client.delete("/v1/spaces").json() == {"grant": "open"}
    assert client.get("/mcp/anything").json() == {"mcp": True, "grant": None}  # passed through as is


def test_the_mount_needs_write_on_every_space(tmp_path):
    client = TestClient(make_app(full_table(tmp_path)))
    denied = call(client, "POST", "/mcp/", READER)
    assert denied.status_code == 403 and denied.headers["content-type"] == "application/json"
    assert denied.json() == {"detail": "token 'reader' may not write every space: it has read on every space"}
    assert call(client, "POST", "/mcp/", DOCS_WRITER).status_code == 403  # write, but on docs only
    for token, name in ((WRITER, "writer"), (ADMIN, "boss")):
        assert call(client, "POST", "/mcp/", token).json() == {"mcp": True, "grant": name}


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LocalHost"])
def test_loopback_binds_need_no_token(host):
    assert auth.loopback(host)
    auth.check_bind(host, TokenTable())


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.0.0.7", "192.168.1.2", "example.com", "my-laptop", ""])
def test_other_binds_need_tokens(host):
    assert not auth.loopback(host)
    with pytest.raises(ValueError) as err:
        auth.check_bind(host, TokenTable())
    assert str(err.value) == (f"--host {host} serves the memory beyond this machine: give tokens (--tokens FILE or "
                              f"MEMGRAPH_SERVICE_TOKEN) or listen on 127.0.0.1")
    auth.check_bind(host, TokenTable.from_env({"MEMGRAPH_SERVICE_TOKEN": ADMIN}))  # with tokens: allowed
