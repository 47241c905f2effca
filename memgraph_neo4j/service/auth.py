"""The service's bearer tokens, each scoped to some spaces and some rights (read < write < admin).

A token table comes from a YAML file (`--tokens FILE` or MEMGRAPH_SERVICE_TOKENS_FILE) and/or one admin token
over every space (MEMGRAPH_SERVICE_TOKEN). The table keeps only sha256 digests; a bearer is checked against
every entry with hmac.compare_digest, so the time taken does not tell which entry came close. An empty table
means an open service, allowed only on loopback (check_bind).

Only starlette and PyYAML here (no FastAPI): the MCP server may reuse loopback(), TokenTable and BearerForMount.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml
from starlette.exceptions import HTTPException
from starlette.requests import Request

from memgraph_neo4j.validation import is_loopback

TOKEN_ENV = "MEMGRAPH_SERVICE_TOKEN"
TOKENS_FILE_ENV = "MEMGRAPH_SERVICE_TOKENS_FILE"
MIN_TOKEN_CHARS = 16
UNAUTHORIZED = "unauthorized: send Authorization: Bearer TOKEN"
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_FIELDS = {"name", "sha256", "token", "spaces", "rights"}


class Right(StrEnum):
    READ = "read"
    WRITE = "write"
    ADMIN = "admin"

    def implies(self, other: Right) -> bool:
        """admin implies write implies read."""
        return _RANK[self] >= _RANK[other]


_RANK = {Right.READ: 0, Right.WRITE: 1, Right.ADMIN: 2}


@dataclass(frozen=True)
class Grant:
    """What one token may do: `rights` on `spaces` (None: every space)."""

    name: str
    spaces: frozenset[str] | None
    rights: frozenset[Right]

    def has(self, right: Right) -> bool:
        return any(held.implies(right) for held in self.rights)

    def sees(self, space: str) -> bool:
        return self.spaces is None or space in self.spaces

    def allows(self, space: str | None, right: Right) -> bool:
        """space None: a request about no single space (listing spaces or jobs), allowed with the right at all;
        the caller then filters what it lists with sees()."""
        return self.has(right) and (space is None or self.sees(space))

    def describe(self) -> str:
        """'read, write on docs, notes' — for messages (never the token)."""
        rights = ", ".join(sorted(self.rights, key=_RANK.__getitem__)) or "no right"
        spaces = "every space" if self.spaces is None else ", ".join(sorted(self.spaces)) or "no space"
        return f"{rights} on {spaces}"


OPEN = Grant("open", None, frozenset(Right))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A fresh token and its sha256 (what goes into the tokens file)."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


class TokenTable:
    """Grants by the sha256 of their token. Names and digests are unique."""

    def __init__(self, entries: Iterable[tuple[str, Grant]] = ()) -> None:
        self._entries: list[tuple[bytes, Grant]] = []
        for digest, grant in entries:
            self._add(digest, grant, where=f"token {grant.name!r}")

    def _add(self, digest: str, grant: Grant, where: str) -> None:
        if any(g.name == grant.name for _, g in self._entries):
            raise ValueError(f"{where}: the name {grant.name!r} is taken by another token: give each a unique name")
        raw = bytes.fromhex(digest)
        if any(hmac.compare_digest(raw, d) for d, _ in self._entries):
            raise ValueError(f"{where}: the same token as another entry: give each entry its own token")
        self._entries.append((raw, grant))

    @classmethod
    def from_file(cls, path: str | Path) -> TokenTable:
        table = cls()
        table._load_file(Path(path))
        return table

    def _load_file(self, path: Path) -> None:
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ValueError(f"tokens file {path}: cannot read it ({exc.strerror or exc})") from None
        except yaml.YAMLError as exc:
            raise ValueError(f"tokens file {path}: not valid YAML ({exc})") from None
        entries = doc.get("tokens") if isinstance(doc, dict) else None
        if not isinstance(entries, list) or not entries:
            raise ValueError(f"tokens file {path}: write a non-empty list under `tokens:` (entries with name, "
                             f"sha256 or token, spaces, rights)")
        for index, entry in enumerate(entries):
            digest, grant = _parse_entry(path, index, entry)
            self._add(digest, grant, where=_where(path, index, grant.name))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> TokenTable:
        """MEMGRAPH_SERVICE_TOKEN: one admin token over every space, named "env";
        MEMGRAPH_SERVICE_TOKENS_FILE: a tokens file."""
        return cls.load(None, environ)

    @classmethod
    def load(cls, tokens_file: str | Path | None, environ: Mapping[str, str] | None = None) -> TokenTable:
        """The tokens file (`--tokens`, else MEMGRAPH_SERVICE_TOKENS_FILE) plus MEMGRAPH_SERVICE_TOKEN."""
        environ = os.environ if environ is None else environ
        table = cls()
        tokens_file = tokens_file or environ.get(TOKENS_FILE_ENV) or None
        if tokens_file:
            table._load_file(Path(tokens_file))
        token = environ.get(TOKEN_ENV)
        if token:
            if len(token) < MIN_TOKEN_CHARS:
                raise ValueError(f"{TOKEN_ENV}: a token of at least {MIN_TOKEN_CHARS} characters "
                                 f"(`memgraph-neo4j serve token` makes one)")
            table._add(hash_token(token), Grant("env", None, frozenset({Right.ADMIN})), where=TOKEN_ENV)
        return table

    def grant_for(self, bearer: str) -> Grant | None:
        """The grant of this token, or None. Compares against every entry, matching or not."""
        given = hashlib.sha256(bearer.encode()).digest()
        found = None
        for digest, grant in self._entries:
            if hmac.compare_digest(given, digest) and found is None:
                found = grant
        return found

    @property
    def grants(self) -> tuple[Grant, ...]:
        return tuple(grant for _, grant in self._entries)

    @property
    def empty(self) -> bool:
        return not self._entries

    def __len__(self) -> int:
        return len(self._entries)


def _where(path: Path, index: int, name: Any) -> str:
    return f"tokens file {path}, tokens[{index}]" + (f" ({name!r})" if isinstance(name, str) and name else "")


def _parse_entry(path: Path, index: int, entry: Any) -> tuple[str, Grant]:
    if not isinstance(entry, dict):
        raise ValueError(f"{_where(path, index, None)}: write a mapping with name, sha256 or token, spaces, rights")
    name = entry.get("name")
    where = _where(path, index, name)
    unknown = sorted(map(str, set(entry) - _FIELDS))
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(unknown)}: use {', '.join(sorted(_FIELDS))}")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}: give a `name` (shown in logs and metrics, never the token)")
    return _digest(entry, where), Grant(name, _spaces(entry, where), _rights(entry, where))


def _digest(entry: dict, where: str) -> str:
    token, digest = entry.get("token"), entry.get("sha256")
    if (token is None) == (digest is None):
        raise ValueError(f"{where}: give exactly one of `sha256` (the token's sha256, preferred) or `token`")
    if digest is not None:
        if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
            raise ValueError(f"{where}: `sha256` must be 64 hex digits (`memgraph-neo4j serve token` prints one)")
        return digest.lower()
    if not isinstance(token, str) or len(token) < MIN_TOKEN_CHARS:
        raise ValueError(f"{where}: `token` must be at least {MIN_TOKEN_CHARS} characters "
                         f"(`memgraph-neo4j serve token` makes one)")
    return hash_token(token)


def _spaces(entry: dict, where: str) -> frozenset[str] | None:
    spaces = entry.get("spaces")
    if not isinstance(spaces, list) or not spaces or not all(isinstance(s, str) and s for s in spaces):
        raise ValueError(f"{where}: give `spaces`, a list of space names such as [docs, notes], or [\"*\"] "
                         f"for every space")
    if "*" in spaces:
        if len(spaces) > 1:
            raise ValueError(f"{where}: `spaces` mixes \"*\" with names: write [\"*\"] alone for every space")
        return None
    return frozenset(spaces)


def _rights(entry: dict, where: str) -> frozenset[Right]:
    rights = entry.get("rights")
    choices = " | ".join(Right)
    if not isinstance(rights, list) or not rights:
        raise ValueError(f"{where}: give `rights`, a list of {choices}")
    bad = [r for r in rights if not isinstance(r, str) or r not in {right.value for right in Right}]
    if bad:
        raise ValueError(f"{where}: unknown right(s) {', '.join(map(repr, bad))}: choose {choices}")
    return frozenset(Right(r) for r in rights)


loopback = is_loopback  # validation.is_loopback, shared with the MCP server's HTTP transport


def check_bind(host: str, table: TokenTable) -> None:
    """ValueError when the service would serve beyond this machine with no token: anyone reaching the port
    could read and rewrite the memory."""
    if table.empty and not loopback(host):
        raise ValueError(f"--host {host} serves the memory beyond this machine: give tokens (--tokens FILE or "
                         f"{TOKEN_ENV}) or listen on 127.0.0.1")


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, else None."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def denial(grant: Grant, space: str | None, right: Right) -> str:
    if space is None:
        return f"token {grant.name!r} may not {right}: it has {grant.describe()}"
    return f"token {grant.name!r} may not {right} space {space!r}: it has {grant.describe()}"


def requires(right: Right) -> Callable[[Request], Grant]:
    """A FastAPI dependency: the request's grant, when it has `right` on the path's `{space}` (if any).
    401 without a known token, 403 when the token lacks the right or the space. Also in request.state.grant."""

    def dependency(request: Request) -> Grant:
        table: TokenTable = request.app.state.tokens  # set by the app: no table is a bug, not an open service
        if table.empty:
            grant = OPEN
        else:
            token = bearer(request.headers.get("authorization"))
            grant = table.grant_for(token) if token else None
            if grant is None:
                raise HTTPException(401, UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
            space = request.path_params.get("space")
            if not grant.allows(space, right):
                raise HTTPException(403, denial(grant, space, right))
        request.state.grant = grant
        return grant

    dependency.__name__ = f"requires_{right}"
    return dependency


class BearerForMount:
    """ASGI middleware for a mounted sub-app (the MCP at /mcp): a token with `write` on every space.
    An empty table passes everything through. Errors are JSON {"detail": ...} like FastAPI's."""

    def __init__(self, app: Any, tokens: TokenTable | None = None, right: Right = Right.WRITE) -> None:
        self.app, self._tokens, self._right = app, tokens, right

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        table = self._tokens if self._tokens is not None else scope["app"].state.tokens
        if table.empty:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        token = bearer(headers.get(b"authorization", b"").decode("latin-1"))
        grant = table.grant_for(token) if token else None
        if grant is not None and grant.spaces is None and grant.has(self._right):
            scope.setdefault("state", {})["grant"] = grant
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if grant is None:
            status, detail, extra = 401, UNAUTHORIZED, [(b"www-authenticate", b"Bearer")]
        else:
            status, extra = 403, []
            detail = f"token {grant.name!r} may not {self._right} every space: it has {grant.describe()}"
        body = json.dumps({"detail": detail}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()), *extra]})
        await send({"type": "http.response.body", "body": body})
