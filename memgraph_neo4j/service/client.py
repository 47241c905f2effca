"""A client of the memory service in the standard library alone (urllib, json): what the CLI uses when
MEMGRAPH_SERVICE_URL is set. A one-shot `query` through it imports no driver, no pydantic, no typer:
Python starts, sends one request, prints (the issue's target: 150 ms wall, process start included).
"""

from __future__ import annotations

import json
import mimetypes
import os
import urllib.parse
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

URL_ENV, TOKEN_ENV = "MEMGRAPH_SERVICE_URL", "MEMGRAPH_SERVICE_TOKEN"
TIMEOUT = 600.0  # seconds a request may take (an upload waited on: the whole ingest)
CHUNK = 1 << 20  # bytes of a file read at a time while uploading it


class ServiceError(Exception):
    """A refusal of the service (its one-line `detail`) or no service at the URL (status 0)."""

    def __init__(self, status: int, detail: str, body: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.body = status, detail, body or {}

    def surface(self) -> tuple[str, str | None, dict[str, Any]] | None:
        """(problem, remedy, values) of a refusal each surface words its own way (validation.SurfaceError)."""
        if "problem" in self.body:
            return self.body["problem"], self.body.get("remedy"), self.body.get("values") or {}
        return None


def service_url(environ: dict[str, str] | None = None) -> str | None:
    url = (environ if environ is not None else os.environ).get(URL_ENV, "").strip()
    return url.rstrip("/") or None


class ServiceClient:
    def __init__(self, url: str, token: str | None = None, timeout: float = TIMEOUT) -> None:
        self.url, self.timeout = url.rstrip("/"), timeout
        self.token = token if token is not None else os.environ.get(TOKEN_ENV) or None

    @classmethod
    def from_environment(cls) -> ServiceClient | None:
        url = service_url()
        return cls(url) if url else None

    # ----- requests ------------------------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None, query: dict[str, Any] | None = None,
                raw: bytes | Iterable[bytes] | None = None, content_type: str | None = None,
                length: int | None = None) -> Any:
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: _q(v) for k, v in query.items() if v is not None}, doseq=True)
        headers = {"Accept": "application/json"}
        data = raw
        if body is not None:
            data, content_type = json.dumps(body).encode(), "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        if length is not None:  # a streamed body: its size up front (else urllib sends it chunked)
            headers["Content-Length"] = str(length)
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        # here: the lean query's search never needs urllib.request (see _post_fast)
        from urllib.error import HTTPError, URLError
        from urllib.request import Request, urlopen

        request = Request(url, data=data, method=method, headers=headers)
        try:
            with urlopen(request, timeout=self.timeout) as response:
                payload = response.read()
                kind = response.headers.get("Content-Type", "")
        except HTTPError as exc:
            raise _refusal(exc) from None
        except (URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ServiceError(0, f"no memory service at {self.url} ({reason}): start it with `memgraph-neo4j "
                                  f"serve`, or unset {URL_ENV} to work in process") from None
        return json.loads(payload) if kind.startswith("application/json") else payload

    def space(self, space: str) -> str:
        return "/v1/spaces/" + urllib.parse.quote(space, safe="")

    # ----- the operations the CLI sends ---------------------------------------------------------------
    def search(self, space: str, query: str, **options: Any) -> dict[str, Any]:
        path, body = self.space(space) + "/search", {"query": query, **options}
        if self.url.startswith("http://"):  # one request on a socket: no http.client, email or ssl to import
            return self._post_fast(path, body)
        return self.request("POST", path, body)

    def _post_fast(self, path: str, body: dict[str, Any]) -> Any:
        """POST JSON over HTTP/1.1 with `Connection: close`, on a plain socket (the one-shot query's request:
        urllib.request would import http.client, email and ssl first)."""
        import socket

        parts = urllib.parse.urlsplit(self.url)
        data = json.dumps(body).encode()
        head = [f"POST {parts.path}{path} HTTP/1.1", f"Host: {parts.netloc}", "Content-Type: application/json",
                "Accept: application/json", f"Content-Length: {len(data)}", "Connection: close"]
        if self.token:
            head.append(f"Authorization: Bearer {self.token}")
        chunks = []
        try:
            with socket.create_connection((parts.hostname, parts.port or 80), timeout=self.timeout) as sock:
                sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)
                while chunk := sock.recv(1 << 16):
                    chunks.append(chunk)
        except OSError as exc:
            raise ServiceError(0, f"no memory service at {self.url} ({exc}): start it with `memgraph-neo4j "
                                  f"serve`, or unset {URL_ENV} to work in process") from None
        header, _, payload = b"".join(chunks).partition(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError):
            raise ServiceError(0, f"{self.url} answered no HTTP: is it a memgraph-neo4j service?") from None
        fields = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
        if fields.get("transfer-encoding", "").lower() == "chunked":
            payload = _dechunked(payload)
        try:
            found = json.loads(payload) if payload else {}
        except ValueError:
            found = {}
        if status >= 400:
            detail = found.get("detail") if isinstance(found, dict) else None
            raise ServiceError(status, detail if isinstance(detail, str) else f"HTTP {status}",
                               found if isinstance(found, dict) else None)
        return found

    def ask(self, space: str, question: str, **options: Any) -> dict[str, Any]:
        return self.request("POST", self.space(space) + "/ask", {"question": question, **options})

    def conflicts(self, space: str, status: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        return self.request("GET", self.space(space) + "/conflicts", query={"status": status, "limit": limit})

    def conflict(self, space: str, conflict_id: str, action: str | None = None,
                 keep: str | None = None) -> dict[str, Any]:
        """One conflict; with `action` (accept, reject, revert) the conflict once it is done."""
        path = self.space(space) + "/conflicts/" + urllib.parse.quote(conflict_id, safe="")
        if action is None:
            return self.request("GET", path)
        return self.request("POST", f"{path}/{action}", {"keep": keep} if action == "accept" else None)

    def documents(self, space: str, limit: int | None = None) -> list[dict[str, Any]]:
        return self.request("GET", self.space(space) + "/documents", query={"limit": limit})

    def retract(self, space: str, doc_ids: list[str]) -> dict[str, Any]:
        return self.request("POST", self.space(space) + "/documents/retract", {"ids": doc_ids})

    def upload(self, space: str, paths: list[Path], names: list[str], title: str | None = None,
               wait: bool = True) -> dict[str, Any]:
        """The files as one job (multipart), streamed from disk: never held whole in memory."""
        boundary = uuid.uuid4().hex
        parts: list[bytes | Path] = []
        for path, name in zip(paths, names, strict=True):
            kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
            head = (f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{_quoted(name)}"\r\n'
                    f"Content-Type: {kind}\r\n\r\n")
            parts += [head.encode(), Path(path), b"\r\n"]
        if title:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n{title}\r\n'.encode())
        parts.append(f"--{boundary}--\r\n".encode())
        size = sum(p.stat().st_size if isinstance(p, Path) else len(p) for p in parts)
        return self.request("POST", self.space(space) + "/documents", raw=_stream(parts),
                            content_type=f"multipart/form-data; boundary={boundary}",
                            query={"wait": wait, "timeout": self.timeout}, length=size)

    def job(self, job_id: str, wait: bool = False, timeout: float | None = None) -> dict[str, Any]:
        """A job; with `wait`, once finished or after `timeout` seconds (default the client's)."""
        query = {"wait": wait, "timeout": timeout or self.timeout} if wait else None
        return self.request("GET", f"/v1/jobs/{urllib.parse.quote(job_id)}", query=query)

    def cancel(self, job_id: str) -> dict[str, Any]:
        return self.request("DELETE", f"/v1/jobs/{urllib.parse.quote(job_id)}")


def _stream(parts: list[bytes | Path]) -> Iterator[bytes]:
    for part in parts:
        if isinstance(part, bytes):
            yield part
            continue
        with open(part, "rb") as file:
            while chunk := file.read(CHUNK):
                yield chunk


def _dechunked(payload: bytes) -> bytes:
    out, rest = [], payload
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2:]
    return b"".join(out)


def _q(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value


def _quoted(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")


def _refusal(exc) -> ServiceError:  # an urllib.error.HTTPError
    try:
        body = json.loads(exc.read() or b"{}")
    except ValueError:
        body = {}
    detail = body.get("detail") if isinstance(body, dict) else None
    if not isinstance(detail, str):
        detail = f"HTTP {exc.code} {exc.reason}"
    return ServiceError(exc.code, detail, body if isinstance(body, dict) else None)
