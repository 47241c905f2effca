"""What every repository shares: one store, one space, and the one conversion of typed rows into
the parameter maps `UNWIND $rows` statements take. States are StrEnums: the driver sends them as
their plain strings, so they need no conversion."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields
from functools import cache
from typing import Any

from memgraph_neo4j.store import GraphStore

BATCH = 1000  # rows per transaction of an UNWIND statement
# rows per page of a read of a space's vectors: ~90 MB of Python floats at 384 dimensions, and a bounded
# transaction (one read of 800k fact vectors broke the 1.4 GiB transaction memory limit at 50k passages)
VECTOR_PAGE = 10_000

VectorPage = tuple[list[str], list[Any], list[list[float]]]  # ids, types (None for facts), embeddings


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

    def _vector_pages(self, name: str, page: int = VECTOR_PAGE) -> Iterator[VectorPage]:
        """(ids, types, embeddings) pages of a keyset-paged vector read (`$after`, `$page`, rows in id order),
        one read transaction each; empty pages are not yielded."""
        after = ""
        while True:
            rows = self.store.read(name, space=self.space, after=after, page=page)
            if rows:
                yield [r["id"] for r in rows], [r["type"] for r in rows], [r["embedding"] for r in rows]
            if len(rows) < page:
                return
            after = rows[-1]["id"]
