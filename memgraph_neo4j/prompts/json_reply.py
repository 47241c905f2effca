"""The one parser of model replies: JSON objects as models really write them."""

from __future__ import annotations

import json
import re
from typing import Any

try:  # optional: better repair of LLM JSON; the built-in cleanup below covers the common cases
    import json_repair
except ImportError:  # pragma: no cover
    json_repair = None

__all__ = ["parse_json_object"]

_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def parse_json_object(text: str) -> Any:
    """JSON from a model reply: plain, fenced, wrapped in chatter, with trailing commas, or repaired.
    ValueError when nothing parsable is left."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    start, end = body.find("{"), body.rfind("}")
    if start != -1 and end > start:  # drop chatter around the object, then trailing commas
        body = body[start : end + 1]
        for candidate in (body, _TRAILING_COMMA.sub(r"\1", body)):
            try:
                return json.loads(candidate)
            except ValueError:
                pass
    if json_repair is not None and "{" in text:
        return json_repair.loads(text)
    raise ValueError("no parsable JSON object")
