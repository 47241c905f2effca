"""One ingest batch in one write transaction: its statements are collected, then committed together
(`GraphStore.write_many`), so a kill (of the process or of the server) leaves either the whole batch
or none of it. The repositories add their statements here instead of running them one by one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from neo4j.exceptions import ConstraintError

from memgraph_neo4j.repository.base import store_rows
from memgraph_neo4j.store import GraphStore


class WriteConflict(RuntimeError):
    """A node the batch created as new exists already (another writer was first); nothing was written."""


class WriteBatch:
    def __init__(self, store: GraphStore, space: str) -> None:
        self.store, self.space = store, space
        self.statements: list[tuple[str, dict[str, Any]]] = []

    def add(self, name: str, /, **params: Any) -> int:
        """A statement (parameters as given, `space` added); returns its index into `commit()`'s results."""
        self.statements.append((name, {"space": self.space, **params}))
        return len(self.statements) - 1

    def add_rows(self, name: str, rows: Iterable[Any], /, **params: Any) -> int | None:
        """An `UNWIND $rows` statement over typed rows (dataclasses or maps); None when there are no rows."""
        rows = list(rows)
        if not rows:
            return None
        maps = rows if isinstance(rows[0], dict) else store_rows(rows)
        return self.add(name, rows=maps, **params)

    def commit(self) -> list[list[dict[str, Any]]]:
        """Every statement in one managed write transaction (retried whole on transient errors)."""
        if not self.statements:
            return []
        try:
            return self.store.write_many(self.statements)
        except ConstraintError as exc:
            raise WriteConflict(str(exc)) from exc
