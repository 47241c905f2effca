"""Request sizes: a JSON body above the service's MEMGRAPH_SERVICE_MAX_BODY_MB, an upload (multipart) above
MEMGRAPH_SERVICE_MAX_UPLOAD_MB, is refused with 413 before it is read whole: by its Content-Length when it
gives one, else as its bytes arrive."""

from __future__ import annotations

import json
from typing import Any


class BodyLimit:
    def __init__(self, app: Any, max_body: int, max_upload: int) -> None:
        self.app, self.max_body, self.max_upload = app, max_body, max_upload

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        upload = headers.get(b"content-type", b"").startswith(b"multipart/")
        limit = self.max_upload if upload else self.max_body
        what = ("upload", "MEMGRAPH_SERVICE_MAX_UPLOAD_MB") if upload else ("request body",
                                                                           "MEMGRAPH_SERVICE_MAX_BODY_MB")
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse(send, limit, what)
            return
        seen, started, refused = 0, False, False

        async def counted() -> dict:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    return {"type": "http.disconnect"}  # the app stops reading; the 413 is sent below
            return message

        async def tracked(message: dict) -> None:
            nonlocal started
            if refused and not started:
                return  # what the app answers to a cut body is replaced by the 413
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except Exception:
            if not refused:
                raise
        if refused and not started:
            await _refuse(send, limit, what)


async def _refuse(send: Any, limit: int, what: tuple[str, str]) -> None:
    body = json.dumps({"detail": f"{what[0]} larger than {limit // (1 << 20)} MB: send less (the service's "
                                 f"{what[1]})"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})

