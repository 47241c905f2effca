"""Driver factory and the one gateway through which the program talks to Neo4j.

Reads and writes go through driver-managed transactions (`execute_read` / `execute_write`), tried
again by store/retry.py (one budget per outage, shared by the store's threads), so `neo4j://` routing
clusters retry on leader changes and a dead server is reported within seconds; statements come from
`cypher/` by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from neo4j import Driver, GraphDatabase, ManagedTransaction, Record
from neo4j.exceptions import AuthError, ClientError, ConfigurationError, ServiceUnavailable, SessionExpired
from neo4j.graph import Node, Path, Relationship

from memgraph_neo4j.config import Connection
from memgraph_neo4j.store.cypher import CypherLibrary, default_library
from memgraph_neo4j.store.retry import ACQUIRE_SECONDS, CONNECT_SECONDS, NO_DRIVER_RETRY, RETRY_SECONDS, Retry

T = TypeVar("T")


class _Stamp:
    """A parameter value `write_many` replaces by the memory version its transaction's first statement
    returned (cypher/memory/bump_version, run first): what the batch's statements stamp on the nodes they
    touch (`changed`), so readers in other processes catch up by reading only those (retrieval/changes.py)."""

    def __repr__(self) -> str:
        return "STAMP"


STAMP = _Stamp()
_NO_GDS = re.compile(r"(procedure with the name|[Uu]nknown function) [`']gds\.")
# (driver, statement text, parameters, check) of the write guard of this thread (GraphStore.guarded)
_GUARD: ContextVar[tuple[Driver, str, dict[str, Any], Callable[[list[dict[str, Any]]], None]] | None] = \
    ContextVar("write_guard", default=None)


class StoreError(RuntimeError):
    """Neo4j could not be reached or refused us; the message (one line) says what to do."""


class StoreUnavailable(StoreError, ServiceUnavailable):
    """The server is down or went away; still a ServiceUnavailable for code that catches the driver's."""


class StoreAuthError(StoreError, AuthError):
    """Wrong credentials; still an AuthError for code that catches the driver's."""


class NoGdsError(StoreError, ClientError):
    """The server has no Graph Data Science plugin; still a ClientError for code that catches the driver's."""


def one_line(exc: BaseException, limit: int = 300) -> str:
    """A driver exception as one line (the driver's own messages span several)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _auth_error(uri: str, username: str) -> StoreError:
    return StoreAuthError(f"Neo4j at {uri} rejected user {username!r}: wrong username or password. For the local "
                      "server run `eval $(memgraph-neo4j neo4j env)`; otherwise set NEO4J_USERNAME/NEO4J_PASSWORD.")


def _down_error(uri: str, exc: BaseException) -> StoreError:
    return StoreUnavailable(f"no Neo4j answers at {uri}: start the local one with `memgraph-neo4j neo4j start`, "
                      f"or point NEO4J_URI at a running server ({one_line(exc)})")


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
                 uri: str = "", retry: Retry | float = RETRY_SECONDS) -> None:
        """`retry`: seconds a statement is tried again while the server does not answer (0: once), or
        the Retry of another store on the same driver (one outage, one budget)."""
        self.driver = driver
        self.database = database
        self.cypher = library or default_library()
        self.uri = uri
        self.retry = retry if isinstance(retry, Retry) else Retry(retry)
        # per space, the memory version the last memory/bump_version of this process made (or a lease
        # acquisition saw): while this thread holds the space's lease nobody else moves it, so the writer's
        # copies are checked against it without a read (memory/lease.py version_under_lease)
        self.versions: dict[str, int] = {}

    @classmethod
    def connect(cls, conn: Connection, verify: bool = True) -> GraphStore:
        """A store on `conn`; `server.connection.open_store()` picks the connection (env or local server)."""
        # Notifications off: "unknown label/property" warnings on a fresh database are noise here.
        try:
            driver = GraphDatabase.driver(conn.uri, auth=(conn.username, conn.password),
                                          notifications_min_severity="OFF", connection_timeout=CONNECT_SECONDS,
                                          connection_acquisition_timeout=ACQUIRE_SECONDS,
                                          max_transaction_retry_time=NO_DRIVER_RETRY)
        except (ConfigurationError, ValueError) as exc:
            raise StoreError(f"NEO4J_URI {conn.uri!r} is not a Neo4j address ({one_line(exc)}): use "
                             "bolt://host:7687 or neo4j://host:7687") from None
        store = cls(driver, conn.database, uri=conn.uri)
        if verify:
            store.verify(conn.username)
        return store

    def verify(self, username: str = "neo4j") -> None:
        try:
            self.driver.verify_connectivity()
        except AuthError as exc:
            raise _auth_error(self.uri, username) from exc
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            raise _down_error(self.uri, exc) from exc

    @contextmanager
    def _errors(self, name: str) -> Iterator[None]:
        """Driver failures of one statement as a one-line StoreError: the server went away (after the
        managed transaction's own retries), refused the credentials, or lacks the GDS plugin."""
        try:
            yield
        except AuthError as exc:
            raise _auth_error(self.uri, "neo4j") from exc
        except (ServiceUnavailable, SessionExpired) as exc:
            raise StoreUnavailable(f"Neo4j at {self.uri} stopped answering while running {name} (no answer "
                                   f"for {self.retry.seconds:.0f} s: {one_line(exc, 200)}): check the server "
                                   "(`memgraph-neo4j neo4j status` for the local one) and run the command again "
                                   "(ingest resumes where it stopped)") from exc
        except ClientError as exc:
            if _NO_GDS.search(exc.message or ""):
                raise NoGdsError(f"Neo4j at {self.uri} has no Graph Data Science plugin ({name} needs it: "
                                 f"{one_line(exc, 160)}): install GDS 2.x, use the local server "
                                 "(`memgraph-neo4j neo4j start`), or a method without PageRank "
                                 "(dense, bm25)") from exc
            raise

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

    @contextmanager
    def guarded(self, name: str, params: Mapping[str, Any],
                check: Callable[[list[dict[str, Any]]], None]) -> Iterator[None]:
        """While the block runs, every write transaction this thread opens on this driver runs `name` first
        and hands its rows to `check`, which raises to roll the transaction back before it writes anything
        (an ingest whose lease is gone: memory/lease.py). Other threads (a lease heartbeat) are not guarded."""
        token = _GUARD.set((self.driver, self.cypher.get(name), dict(params), check))
        try:
            yield
        finally:
            _GUARD.reset(token)

    def _guard(self, tx: ManagedTransaction) -> None:
        guard = _GUARD.get()
        if guard is not None and guard[0] is self.driver:
            guard[3]([_plain(record) for record in tx.run(guard[1], guard[2])])

    def _run_write(self, tx: ManagedTransaction, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        self._guard(tx)
        return self._run(tx, name, params)

    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self._execute("read", name, params)

    def read_many(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[dict[str, Any]]]:
        """Several statements in one read transaction (one round trip per statement, one session)."""
        def run_all(tx: ManagedTransaction) -> list[list[dict[str, Any]]]:
            return [self._run(tx, name, params) for name, params in statements]

        name = statements[0][0] if statements else "read_many"
        with self._session(name) as session:
            return self.retry.run(lambda: session.execute_read(run_all), name)

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self._execute("write", name, params)

    def write_many(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[dict[str, Any]]]:
        """Several statements in one write transaction: all of them happen, or none."""
        def run_all(tx: ManagedTransaction) -> list[list[dict[str, Any]]]:
            self._guard(tx)
            results: list[list[dict[str, Any]]] = []
            for name, params in statements:
                if any(v is STAMP for v in params.values()):
                    if not results or not results[0] or "version" not in results[0][0]:
                        raise ValueError(f"{name} stamps the memory version, but the transaction's first "
                                         "statement returned none (memory/bump_version must come first)")
                    params = {k: results[0][0]["version"] if v is STAMP else v for k, v in params.items()}
                results.append(self._run(tx, name, params))
            return results

        name = statements[0][0] if statements else "write_many"
        with self._session(name) as session:
            results = self.retry.run(lambda: session.execute_write(run_all), name)
        self._note_versions(statements, results)
        return results

    def _note_versions(self, statements: Sequence[tuple[str, Mapping[str, Any]]],
                       results: Sequence[list[dict[str, Any]]]) -> None:
        for (name, params), rows in zip(statements, results):
            if name == "memory/bump_version" and rows:
                self.versions[params["space"]] = rows[0]["version"]

    @contextmanager
    def _session(self, name: str) -> Iterator[Any]:
        """A session whose transactions the driver tries once: `self.retry` tries them again."""
        with self._errors(name), self.driver.session(database=self.database,
                                                     max_transaction_retry_time=NO_DRIVER_RETRY) as session:
            yield session

    def _execute(self, mode: str, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        with self._session(name) as session:
            if mode == "read":
                return self.retry.run(lambda: session.execute_read(self._run, name, params), name)
            rows = self.retry.run(lambda: session.execute_write(self._run_write, name, params), name)
        self._note_versions([(name, params)], [rows])
        return rows

    def write_batched(self, name: str, rows: Iterable[Mapping[str, Any]], /, batch_size: int = 1000,
                      **params: Any) -> list[dict[str, Any]]:
        """`UNWIND $rows AS row ...` statements, one transaction per batch (idempotent MERGEs)."""
        rows = list(rows)
        out: list[dict[str, Any]] = []
        with self._session(name) as session:
            for batch in _batches(rows, batch_size):
                rows_of = {**params, "rows": batch}
                out.extend(self.retry.run(lambda: session.execute_write(self._run_write, name, rows_of), name))
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

        name = statements[0][0] if statements else "stream"
        with self._session(name) as session:
            return self.retry.run(lambda: session.execute_read(work), name)

    def run_implicit(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Auto-commit run, for what a managed transaction cannot hold: schema DDL and
        `CALL {...} IN TRANSACTIONS` batches. Only idempotent statements belong here."""
        with self._session(name) as session:
            return self.retry.run(lambda: [_plain(record) for record in session.run(self.cypher.get(name), params)],
                                  name)

    def run_folder(self, folder: str, **params: Any) -> list[str]:
        """Run every statement of a folder in name order (files are numbered where order matters)."""
        names = self.cypher.names(folder)
        for name in names:
            self.run_implicit(name, **params)
        return names

    def with_library(self, library: CypherLibrary) -> GraphStore:
        """The same driver with another statement folder (tests keep theirs in tests/cypher); the versions
        its writes make are this store's."""
        clone = GraphStore(self.driver, self.database, library, self.uri, self.retry)
        clone.versions = self.versions
        return clone

    def init_schema(self, dimension: int = 384) -> list[str]:
        """Constraints, vector and fulltext indexes; idempotent (IF NOT EXISTS) and awaited."""
        names = self.run_folder("schema", dimension=dimension)
        self.run_implicit("admin/await_indexes", timeout=300)
        self.check_vector_dimensions(dimension)
        return names

    def check_vector_dimensions(self, dimension: int, rows: Sequence[Mapping[str, Any]] | None = None) -> None:
        """StoreError when a vector index exists with another dimension than the embedder's: CREATE ... IF
        NOT EXISTS keeps the old index, and vectors of another size would be left out of it silently.
        `rows`: the vector indexes' names and dimensions, if already read (else read here)."""
        for row in rows if rows is not None else self.read("admin/vector_index_dimensions"):
            if row["dimension"] is not None and int(row["dimension"]) != dimension:
                raise StoreError(
                    f"vector index {row['name']!r} in database {self.database!r} holds {row['dimension']}-dimensional "
                    f"vectors, but the embedder makes {dimension}: every space of a database shares these indexes, "
                    f"so use an embedder of {row['dimension']} dimensions (MiniLM: 384) or another database "
                    "(NEO4J_DATABASE)")
