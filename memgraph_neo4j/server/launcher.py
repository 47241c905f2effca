"""One local Neo4j + GDS server run without Docker, behind a single facade for the CLI and tests.

Layout under ``Settings.home`` (per-user data dir, ``MEMGRAPH_HOME`` overrides):

    dist/neo4j-<v>-gds-<v>/   the shared distribution (see ``assemble``)
    dist/apache-maven-<v>/    Maven, fetched only when `mvn` is not on PATH (see ``maven``)
    instance/                 conf/, data/, logs/, run/, password: the owner's only (0700, files 0600)

Starts and stops of one instance are serialised by an OS file lock (run/launcher.lock): a second
`start` waits for the first and reports its server. The server is found by its command line
(this instance's --home-dir) and the port it holds, not only by the pid file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from memgraph_neo4j import versions
from memgraph_neo4j.config import Settings
from memgraph_neo4j.server import assemble as assembly
from memgraph_neo4j.server.errors import LauncherError
from memgraph_neo4j.server.instance import UMASK, ensure_password, make_dirs, secure, write_conf
from memgraph_neo4j.server.java import JVM_FLAGS, Java, find_java, java_env
from memgraph_neo4j.server.process import (
    exclusive,
    holds_port,
    port_open,
    read_pid_file,
    server_pids,
    tail,
    terminate,
    write_pid_file,
)
from memgraph_neo4j.server.startup_watch import StartupWatch

__all__ = ["MAIN_CLASS", "Java", "LauncherError", "LocalNeo4j", "find_java", "tail"]

MAIN_CLASS = "org.neo4j.server.Neo4jCommunity"


class LocalNeo4j:
    """Assemble, start, stop and inspect one local Neo4j + GDS instance."""

    def __init__(self, settings: Settings | None = None, instance_dir: Path | None = None) -> None:
        self.settings = settings or Settings()
        self.home = Path(self.settings.home).expanduser()
        self.dist = assembly.dist_dir(self.home)
        # absolute: the server is recognised by --home-dir=<this path> on its command line
        self.instance = Path(instance_dir or self.settings.instance or self.home / "instance").expanduser().absolute()
        self.bolt_port = self.settings.bolt_port
        self.http_port = self.settings.http_port

    # ----- paths and facts -------------------------------------------------------------------
    @property
    def lib_dir(self) -> Path:
        return self.dist / "lib"

    @property
    def plugins_dir(self) -> Path:
        return self.dist / "plugins"

    @property
    def conf_dir(self) -> Path:
        return self.instance / "conf"

    @property
    def log_file(self) -> Path:
        return self.instance / "logs" / "neo4j.log"

    @property
    def debug_log(self) -> Path:
        return self.instance / "logs" / "debug.log"

    @property
    def console_log(self) -> Path:
        return self.instance / "logs" / "console.log"

    @property
    def pid_file(self) -> Path:
        return self.instance / "run" / "memgraph-neo4j.pid"

    @property
    def lock_file(self) -> Path:
        return self.instance / "run" / "launcher.lock"

    @property
    def password_file(self) -> Path:
        return self.instance / "password"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def browser_url(self) -> str:
        return f"{self.http_url}/browser/"

    def password(self) -> str:
        if not self.password_file.exists():
            raise LauncherError(
                f"no password at {self.password_file}: the local server was never started; "
                "run `memgraph-neo4j neo4j start` (or set NEO4J_URI/NEO4J_PASSWORD for another server)"
            )
        return self.password_file.read_text().strip()

    def env_exports(self) -> str:
        return (
            f"export NEO4J_URI={self.bolt_uri} NEO4J_USERNAME=neo4j "
            f"NEO4J_PASSWORD={self.password()}"
        )

    # ----- assembly --------------------------------------------------------------------------
    def is_assembled(self) -> bool:
        return assembly.is_assembled(self.dist)

    def assemble(self, quiet: bool = False, progress=None) -> Path:
        """Resolve every jar from Maven Central with Maven (re-uses ~/.m2); no-op when done."""
        return assembly.assemble(self.dist, quiet=quiet, maven=self.settings.maven,
                                 repository=self.settings.maven_repository, progress=progress)

    def assembled_size(self) -> int:
        return assembly.assembled_size(self.dist)

    # ----- configuration ---------------------------------------------------------------------
    def _java_env(self) -> dict[str, str]:
        return java_env(self.instance, self.conf_dir)

    def _prepare(self, java: Java) -> None:
        secure(self.instance)  # instances made before the owner-only rule, or files someone loosened
        write_conf(self.instance, self.conf_dir, self.plugins_dir, bolt_port=self.bolt_port,
                   http_port=self.http_port, pagecache=self.settings.pagecache)
        ensure_password(self.instance, self.password_file, java, self.lib_dir, self._java_env())

    # ----- process state ---------------------------------------------------------------------
    def _servers(self) -> list[int]:
        """Every live Neo4j of this instance (its --home-dir), whatever the pid file says."""
        return server_pids(MAIN_CLASS, f"--home-dir={self.instance}")

    def running_pid(self) -> int | None:
        """The pid of this instance's server if one runs: the one holding the Bolt port, else the one
        the pid file names, else the oldest. The pid file is corrected to it, or removed if none runs."""
        state = read_pid_file(self.pid_file) or {}
        servers = self._servers()
        if not servers:
            self.pid_file.unlink(missing_ok=True)
            return None
        bolt_port = int(state.get("bolt_port", self.bolt_port))
        recorded = int(state.get("pid", 0) or 0)
        pid = next((p for p in servers if holds_port(p, bolt_port)), None)
        pid = pid or (recorded if recorded in servers else servers[0])
        self.bolt_port = bolt_port
        self.http_port = int(state.get("http_port", self.http_port))
        if pid != recorded:
            write_pid_file(self.pid_file, {**state, "pid": pid, "bolt_port": self.bolt_port,
                                           "http_port": self.http_port})
        return pid

    def _store(self, timeout: float = 5.0):
        from neo4j import GraphDatabase

        from memgraph_neo4j.store.graph_store import GraphStore

        driver = GraphDatabase.driver(self.bolt_uri, auth=("neo4j", self.password()),
                                      connection_timeout=timeout, max_transaction_retry_time=0)
        return GraphStore(driver, uri=self.bolt_uri, retry=0)  # a probe: one attempt

    def _probe(self, timeout: float = 5.0) -> str | None:
        """gds.version() if the server answers a query, else None."""
        from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable, SessionExpired

        try:
            with self._store(timeout) as store:
                return store.read("server/gds_version")[0]["gds"]
        except AuthError as exc:
            raise LauncherError(f"the server at {self.bolt_uri} rejected the stored password: {exc}") from exc
        except (ServiceUnavailable, SessionExpired, Neo4jError, OSError):
            return None

    # ----- lifecycle -------------------------------------------------------------------------
    def _exclusive(self, progress=None):
        """This instance's start/stop lock (a second caller waits for the first)."""
        make_dirs(self.instance)
        waiting = (lambda: progress(f"another start or stop of {self.instance} is under way; waiting for it")
                   ) if progress else None
        return exclusive(self.lock_file, waiting)

    def start(self, timeout: float | None = None, progress=print) -> dict:
        """Start (assembling first if needed) and return status once `RETURN gds.version()` answers.

        `timeout` bounds the seconds the server logs nothing new (see ``startup_watch``): a start that
        recovers a database after an unclean stop waits for as long as recovery makes progress."""
        with self._exclusive(progress):
            return self._start(timeout or self.settings.start_timeout, progress)

    def _start(self, timeout: float, progress) -> dict:
        pid = self.running_pid()
        if pid is not None:
            status = self.status()
            status["already_running"] = True
            return status
        for port in (self.bolt_port, self.http_port):
            if port_open(port):
                raise LauncherError(
                    f"port {port} on 127.0.0.1 is taken by another process; stop it or choose other ports "
                    "(MEMGRAPH_BOLT_PORT / MEMGRAPH_HTTP_PORT)"
                )
        if not self.is_assembled():
            progress(f"assembling Neo4j {versions.NEO4J_VERSION} + GDS {versions.GDS_VERSION} from Maven Central ...")
            self.assemble(quiet=not sys.stderr.isatty(), progress=progress)
        java = find_java()
        self._prepare(java)
        cmd = [
            str(java.executable),
            f"-Xms{self.settings.heap}",
            f"-Xmx{self.settings.heap}",
            *JVM_FLAGS,
            "-cp",
            str(self.lib_dir / "*"),
            MAIN_CLASS,
            f"--home-dir={self.instance}",
            f"--config-dir={self.conf_dir}",
        ]
        watch = StartupWatch(self.debug_log, timeout)
        console = os.open(self.console_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            proc = subprocess.Popen(
                cmd, stdout=console, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=self._java_env(), cwd=self.instance, start_new_session=True, umask=UMASK,
            )
        finally:
            os.close(console)
        write_pid_file(self.pid_file, {
            "pid": proc.pid, "bolt_port": self.bolt_port, "http_port": self.http_port,
            "java": str(java.executable), "started": time.time(),
        })
        while not watch.expired():
            if proc.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                raise LauncherError(
                    f"Neo4j exited with code {proc.returncode} during start-up.\n--- {self.log_file} ---\n"
                    f"{tail(self.log_file)}\n--- {self.console_log} ---\n{tail(self.console_log, 20)}"
                )
            for report in watch.poll():
                progress(report)
            # our process must hold the port: another one answering there is not our server
            if holds_port(proc.pid, self.bolt_port) and self._probe() is not None:
                return self.status()
            time.sleep(0.5)
        terminate(proc.pid, grace=20)
        self.pid_file.unlink(missing_ok=True)
        raise LauncherError(
            f"Neo4j did not answer `RETURN gds.version()`: its log ({self.debug_log}) showed no progress for "
            f"{timeout:.0f}s (MEMGRAPH_START_TIMEOUT sets how long a start waits for progress).\n"
            f"--- {self.log_file} ---\n{tail(self.log_file)}"
        )

    def stop(self, grace: float = 60.0) -> bool:
        """Graceful stop of every server of this instance; returns False if none was running."""
        if not self.instance.exists():
            return False
        with self._exclusive():
            pids = self._servers()
            killed = [pid for pid in pids if not terminate(pid, grace)]
            self.pid_file.unlink(missing_ok=True)
        if killed:
            raise LauncherError(f"Neo4j (pid {', '.join(map(str, killed))}) did not stop within {grace:.0f}s "
                                "and was killed")
        return bool(pids)

    def status(self) -> dict:
        pid = self.running_pid()
        info: dict = {
            "running": pid is not None,
            "pid": pid,
            "home": str(self.home),
            "instance": str(self.instance),
            "assembled": self.is_assembled(),
            "neo4j_version": versions.NEO4J_VERSION,
            "gds_version": versions.GDS_VERSION,
            "bolt_uri": self.bolt_uri,
            "http_url": self.http_url,
            "browser_url": self.browser_url,
        }
        state = read_pid_file(self.pid_file) or {}
        if pid is not None:
            info["java"] = state.get("java")
            from neo4j.exceptions import DriverError, Neo4jError

            try:
                info.update(self._server_versions())
            except (DriverError, Neo4jError, OSError, LauncherError) as exc:  # starting or stopping
                info["answering"] = False
                info["error"] = f"{type(exc).__name__}: {exc}"
        return info

    def _server_versions(self) -> dict:
        with self._store() as store:
            rec = store.read("server/components")[0]
        return {"neo4j_version": rec["neo4j"], "edition": rec["edition"], "gds_version": rec["gds"],
                "java_version": rec["java_vm"] or rec["java_spec"]}
