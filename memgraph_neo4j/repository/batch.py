"""One ingest batch in one write transaction: its statements are collected, then committed together
(`GraphStore.write_many`), so a kill (of the process or of the server) leaves either the whole batch
or none of it. The repositories add their statements here instead of running them one by one.

A batch that changes what retrieval holds is `stamped`: its first statement moves the memory version on
(cypher/memory/bump_version, taking the space's MemoryState lock first, so writers of a space queue there
rather than deadlock on each other's nodes), and every statement gets that version as `$stamp`, which it
sets as `changed` on the nodes it touches (retrieval/changes.py reads them back)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from neo4j.exceptions import ConstraintError

from memgraph_neo4j.repository.base import store_rows
from memgraph_neo4j.store import STAMP, GraphStore


class WriteConflict(RuntimeError):
    """A node the batch created as new exists already (another writer was first); nothing was written."""


class WriteBatch:
    def __init__(self, store: GraphStore, space: str, stamped: bool = False) -> None:
        """`stamped`: the batch bumps the memory version first and stamps what it writes (the module doc);
        otherwise `$stamp` is null, the statements leave `changed` as it was, and whoever bumps the
        version afterwards does so unstamped (readers then read everything again)."""
        self.store, self.space = store, space
        self.statements: list[tuple[str, dict[str, Any]]] = []
        self.stamp = STAMP if stamped else None
        self.version: int | None = None  # stamped: the memory version the commit made
        if stamped:  # the bump itself takes no stamp: it makes it
            self.statements.append(("memory/bump_version", {"space": space, "stamped": True}))

    def add(self, name: str, /, **params: Any) -> int:
        """A statement (parameters as given, `space` and `stamp` added); returns its index into
        `commit()`'s results."""
        self.statements.append((name, {"space": self.space, "stamp": self.stamp, **params}))
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
        if not self.statements or (self.stamp is not None and len(self.statements) == 1):
            return []  # nothing but the version bump: nothing changed
        try:
            results = self.store.write_many(self.statements)
        except ConstraintError as exc:
            raise WriteConflict(str(exc)) from exc
        if self.stamp is not None:
            self.version = results[0][0]["version"]
        return results
