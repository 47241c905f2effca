"""What every repository shares: one store, one space, and the one conversion of typed rows into
the parameter maps `UNWIND $rows` statements take (enum states as their plain string values)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from enum import Enum
from typing import Any

from memgraph_neo4j.store import GraphStore

BATCH = 1000  # rows per transaction of an UNWIND statement


def store_rows(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """Dataclass rows as parameter maps (shallow: embeddings are passed, not copied)."""
    out = []
    for row in rows:
        values = {f.name: getattr(row, f.name) for f in fields(row)}
        out.append({k: v.value if isinstance(v, Enum) else v for k, v in values.items()})
    return out


class Repository:
    """Statements of one memory space; repositories are the only callers of the store."""

    def __init__(self, store: GraphStore, space: str) -> None:
        self.store, self.space = store, space

    def _write_rows(self, name: str, rows: Iterable[Any], batch_size: int = BATCH, **params: Any) -> None:
        """An `UNWIND $rows` statement over typed rows, one transaction per batch."""
        self.store.write_batched(name, store_rows(rows), batch_size=batch_size, space=self.space, **params)
