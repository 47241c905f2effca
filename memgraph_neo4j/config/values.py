"""What a setting may be: one value from the environment or a keyword argument converted to its field's type
(`convert`), then checked against what that field allows (`check`). A bad value is a SettingsError whose one
line names the variable, the value as given and what to use instead (config.Settings raises it)."""

from __future__ import annotations

import math
import os
import re
import types
import typing
import urllib.parse
from pathlib import Path
from typing import Any, Literal


class SettingsError(ValueError):
    """A setting (MEMGRAPH_<FIELD> or a keyword argument of Settings) has a value it cannot take; the
    one-line message names the variable, the value and what is allowed (the CLI prints just that)."""


PORT_RANGE = (1, 65535)
_SIZE = re.compile(r"[1-9][0-9]*[kKmMgGtT]?")  # what -Xmx and Neo4j's memory settings both take
_DATABASE = re.compile(r"[A-Za-z][A-Za-z0-9._-]{0,62}")  # Neo4j's database-name rules, underscores too
_URL_SCHEMES = ("http", "https", "file")


def _integer(text: str) -> int:
    try:
        return int(text)  # like pydantic: surrounding spaces and 7_687 are fine
    except ValueError:
        number = float(text)  # and "7687.0"
        if not number.is_integer():
            raise
        return int(number)


def convert(name: str, raw: Any, kind: Any) -> Any:
    """`raw` (a string from the environment or a keyword argument) as a value of `kind`; a SettingsError
    names `name` (the variable or the argument), the value and what is allowed."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        if raw is None:
            return None
        [kind] = [arg for arg in typing.get_args(kind) if arg is not type(None)]
    if typing.get_origin(kind) is Literal:
        choices = typing.get_args(kind)
        if raw not in choices:
            raise SettingsError(f"{name}={raw!r} is not one of {', '.join(map(repr, choices))}")
        return raw
    if kind is Path:
        if isinstance(raw, os.PathLike) or (isinstance(raw, str) and raw.strip()):
            return Path(raw)
        raise SettingsError(f"{name}={raw!r} is not a path: give a folder")
    if kind is str:
        if isinstance(raw, str):
            return raw
        raise SettingsError(f"{name}={raw!r} is not a string")
    what = "an integer" if kind is int else "a number"
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise SettingsError(f"{name}={raw!r} is not {what}")
    try:
        if isinstance(raw, str):
            return _integer(raw) if kind is int else float(raw)
        if kind is int and not float(raw).is_integer():
            raise ValueError
        return int(raw) if kind is int else float(raw)
    except (ValueError, OverflowError):
        raise SettingsError(f"{name}={raw!r} is not {what}") from None


def check(field_name: str, name: str, value: Any, raw: Any) -> None:
    """The values a converted setting may take beyond its type; a SettingsError names `raw`, as given."""
    def bad(what: str, allowed: str) -> SettingsError:
        return SettingsError(f"{name}={raw!r} is not {what}: use {allowed}")

    if field_name in ("bolt_port", "http_port", "service_port") and not PORT_RANGE[0] <= value <= PORT_RANGE[1]:
        raise bad("a TCP port", f"{PORT_RANGE[0]}-{PORT_RANGE[1]}")
    if field_name in ("heap", "pagecache") and not _SIZE.fullmatch(value):
        raise bad("a memory size", "digits and k, m, g or t, such as 512m or 2g")
    if field_name in ("start_timeout", "llm_timeout") and not (math.isfinite(value) and value > 0):
        raise bad("a timeout", "seconds > 0")
    if field_name == "llm_retries" and value < 0:
        raise bad("a number of retries", "an integer >= 0")
    if field_name == "embedding_dimension" and value < 1:
        raise bad("a vector dimension", "an integer >= 1")
    if field_name == "maven_repository":
        url = urllib.parse.urlsplit(value)
        if url.scheme not in _URL_SCHEMES or not (url.netloc or url.path.strip("/")):
            raise bad("a repository URL", "an http://, https:// or file:// URL of Maven Central or a mirror")
    if field_name == "database" and not _DATABASE.fullmatch(value):
        raise bad("a database name", "a letter, then letters, digits, '.', '-' or '_' (at most 63 characters)")
    if field_name in ("service_max_upload_mb", "service_max_body_mb") and value < 1:
        raise bad("a size in megabytes", "an integer >= 1")
    if field_name == "service_host" and (not value.strip() or any(c.isspace() for c in value)):
        raise bad("a host", "an address to listen on, such as 127.0.0.1 (or 0.0.0.0 with tokens)")
    if field_name == "service_token" and len(value) < 16:  # a secret: its length, never its text
        raise SettingsError(f"{name}=(hidden, {len(value)} characters) is not a token: use at least 16 characters "
                            "(`memgraph-neo4j serve --new-token` makes one)")
    if field_name == "service_url":
        url = urllib.parse.urlsplit(value)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise bad("a service URL", "the http:// or https:// address `memgraph-neo4j serve` printed")
    if field_name == "llm_model" and not value.strip():
        raise bad("a model name", "the name of a chat model")
