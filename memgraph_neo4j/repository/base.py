"""What every repository shares: one store, one space, and the one conversion of typed rows into
the parameter maps `UNWIND $rows` statements take. States are StrEnums: the driver sends them as
their plain strings, so they need no conversion."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from functools import cache
from typing import Any

from memgraph_neo4j.store import GraphStore

BATCH = 1000  # rows per transaction of an UNWIND statement


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def store_rows(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """Dataclass rows as parameter maps (shallow: embeddings are passed, not copied). Field names are
    looked up once per row class: `dataclasses.fields` per row cost 0.4 s of a 16 s MuSiQue write path."""
    return [{name: getattr(row, name) for name in _field_names(type(row))} for row in rows]


class Repository:
    """Statements of one memory space; repositories are the only callers of the store."""

    def __init__(self, store: GraphStore, space: str) -> None:
        self.store, self.space = store, space

    def _write_rows(self, name: str, rows: Iterable[Any], batch_size: int = BATCH, **params: Any) -> None:
        """An `UNWIND $rows` statement over typed rows, one transaction per batch; unstamped (`$stamp` null,
        repository/batch.py): whoever bumps the version after these writes does so unstamped."""
        params.setdefault("stamp", None)
        self.store.write_batched(name, store_rows(rows), batch_size=batch_size, space=self.space, **params)
