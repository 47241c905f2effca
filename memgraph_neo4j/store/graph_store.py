"""Driver factory and the one gateway through which the program talks to Neo4j.

Reads and writes go through driver-managed transactions (`execute_read` / `execute_write`), so
`neo4j://` routing clusters retry on leader changes; statements come from `cypher/` by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction, Record
from neo4j.exceptions import AuthError, ServiceUnavailable
from neo4j.graph import Node, Path, Relationship

from memgraph_neo4j.config import Connection
from memgraph_neo4j.store.cypher import CypherLibrary, default_library

T = TypeVar("T")


class StoreError(RuntimeError):
    """Neo4j could not be reached or refused us; the message says what to do."""


def _batches(rows: Sequence[Mapping[str, Any]], size: int) -> Iterator[list[Mapping[str, Any]]]:
    for start in range(0, len(rows), size):
        yield list(rows[start : start + size])


def _plain(record: Record) -> dict[str, Any]:
    """A record as a dict. `Record.data()` walks every value element by element to turn nodes into
    dicts: 31 s instead of 2 s for the 28k embeddings of the MuSiQue layers. Our statements return
    properties, so only a record that holds graph objects takes that path."""
    values = dict(record)
    if any(isinstance(v, (Node, Relationship, Path)) for v in values.values()):
        return record.data()
    return values


class GraphStore:
    def __init__(self, driver: Driver, database: str = "neo4j", library: CypherLibrary | None = None,
                 uri: str = "") -> None:
        self.driver = driver
        self.database = database
        self.cypher = library or default_library()
        self.uri = uri

    @classmethod
    def connect(cls, conn: Connection, verify: bool = True) -> GraphStore:
        """A store on `conn`; `server.connection.open_store()` picks the connection (env or local server)."""
        # Notifications off: "unknown label/property" warnings on a fresh database are noise here.
        driver = GraphDatabase.driver(conn.uri, auth=(conn.username, conn.password),
                                      notifications_min_severity="OFF")
        store = cls(driver, conn.database, uri=conn.uri)
        if verify:
            store.verify(conn.username)
        return store

    def verify(self, username: str = "neo4j") -> None:
        try:
            self.driver.verify_connectivity()
        except AuthError as exc:
            raise StoreError(
                f"Neo4j at {self.uri} rejected user {username!r}: wrong username or password. For the local "
                "server run `eval $(memgraph-neo4j neo4j env)`; otherwise set NEO4J_USERNAME/NEO4J_PASSWORD."
            ) from exc
        except (ServiceUnavailable, OSError) as exc:
            raise StoreError(
                f"no Neo4j answers at {self.uri}: start the local one with `memgraph-neo4j neo4j start`, "
                f"or point NEO4J_URI at a running server ({exc})"
            ) from exc

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- statements by name -----------------------------------------------------------------
    def _run(self, tx: ManagedTransaction, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        result = tx.run(self.cypher.get(name), dict(params))
        return [_plain(record) for record in result]

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self._execute("read", name, params)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self._execute("write", name, params)

    def write_many(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[dict[str, Any]]]:
        """Several statements in one write transaction: all of them happen, or none."""
        def run_all(tx: ManagedTransaction) -> list[list[dict[str, Any]]]:
            return [self._run(tx, name, params) for name, params in statements]

        with self.driver.session(database=self.database) as session:
            return session.execute_write(run_all)

    def _execute(self, mode: str, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        with self.driver.session(database=self.database) as session:
            run = session.execute_read if mode == "read" else session.execute_write
            return run(self._run, name, params)

    def write_batched(self, name: str, rows: Iterable[Mapping[str, Any]], /, batch_size: int = 1000,
                      **params: Any) -> list[dict[str, Any]]:
        """`UNWIND $rows AS row ...` statements, one transaction per batch (idempotent MERGEs)."""
        rows = list(rows)
        out: list[dict[str, Any]] = []
        with self.driver.session(database=self.database) as session:
            for batch in _batches(rows, batch_size):
                out.extend(session.execute_write(self._run, name, {**params, "rows": batch}))
        return out

    def stream(self, statements: Sequence[tuple[str, Mapping[str, Any]]],
               consume: Callable[[Iterator[tuple[int, dict[str, Any]]]], T]) -> T:
        """Rows of several read statements, in order, in one read transaction, handed to `consume` as
        (statement index, row) while they arrive: the driver fetches them in batches, so an export of a
        large space never holds it in memory. Values come as the driver decodes them (statements that
        stream return properties, not graph objects). A retried transaction calls `consume` again from
        the start, so it must begin its output afresh."""
        def work(tx: ManagedTransaction) -> T:
            def rows() -> Iterator[tuple[int, dict[str, Any]]]:
                for index, (name, params) in enumerate(statements):
                    result = tx.run(self.cypher.get(name), dict(params))
                    keys = result.keys()
                    for record in result:
                        yield index, dict(zip(keys, record))
            return consume(rows())

        with self.driver.session(database=self.database) as session:
            return session.execute_read(work)

    def run_implicit(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Auto-commit run, for what a managed transaction cannot hold: schema DDL and
        `CALL {...} IN TRANSACTIONS` batches. Only idempotent statements belong here."""
        with self.driver.session(database=self.database) as session:
            return [_plain(record) for record in session.run(self.cypher.get(name), params)]

    def run_folder(self, folder: str, **params: Any) -> list[str]:
        """Run every statement of a folder in name order (files are numbered where order matters)."""
        names = self.cypher.names(folder)
        for name in names:
            self.run_implicit(name, **params)
        return names

    def with_library(self, library: CypherLibrary) -> GraphStore:
        """The same driver with another statement folder (tests keep theirs in tests/cypher)."""
        return GraphStore(self.driver, self.database, library, self.uri)

    def init_schema(self, dimension: int = 384) -> list[str]:
        """Constraints, vector and fulltext indexes; idempotent (IF NOT EXISTS) and awaited."""
        names = self.run_folder("schema", dimension=dimension)
        self.run_implicit("admin/await_indexes", timeout=300)
        return names
