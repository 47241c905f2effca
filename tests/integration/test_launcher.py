"""The local launcher on a second, throw-away instance (shares the assembled distribution)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memgraph_neo4j.config import Connection, Settings
from memgraph_neo4j.server.launcher import LocalNeo4j
from memgraph_neo4j.server.process import port_open
from memgraph_neo4j.store import GraphStore, StoreError

PORTS = (int(os.environ.get("MEMGRAPH_TEST2_BOLT_PORT", "27687")), int(os.environ.get("MEMGRAPH_TEST2_HTTP_PORT", "27474")))


@pytest.fixture(scope="module")
def instance(tmp_path_factory):
    settings = Settings(bolt_port=PORTS[0], http_port=PORTS[1], heap="512m", pagecache="64m",
                        instance=tmp_path_factory.mktemp("instance"))
    server = LocalNeo4j(settings)
    yield server
    server.stop()


def _cli(server: LocalNeo4j, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, MEMGRAPH_HOME=str(server.home), MEMGRAPH_INSTANCE=str(server.instance),
               MEMGRAPH_BOLT_PORT=str(server.bolt_port), MEMGRAPH_HTTP_PORT=str(server.http_port))
    env.pop("NEO4J_URI", None)
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=600)


def _servers(instance: Path) -> list[int]:
    """Live processes running Neo4j for `instance` (read from /proc, independent of the launcher)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
            state = (entry / "stat").read_text().rsplit(") ", 1)[1][0] if args else "Z"
        except OSError:
            continue
        if b"org.neo4j.server.Neo4jCommunity" in args and f"--home-dir={instance}".encode() in args and state != "Z":
            found.append(int(entry.name))
    return found


def _port_holder(port: int) -> set[int]:
    """Pids with a socket listening on 127.0.0.1:`port`."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            cols = line.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{cols[9]}]")
    holders = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if any(os.readlink(fd) in inodes for fd in (entry / "fd").iterdir()):
                    holders.add(int(entry.name))
            except OSError:
                continue
    return holders


def _connect(server: LocalNeo4j, test_cypher) -> GraphStore:
    return GraphStore.connect(Connection(uri=server.bolt_uri, password=server.password())).with_library(test_cypher)


def test_data_survives_restart(instance, test_cypher):
    info = instance.start()
    assert info["running"] and info["gds_version"] == "2.26.0" and info["java_version"]
    assert oct(Path(instance.password_file).stat().st_mode & 0o777) == "0o600"
    with _connect(instance, test_cypher) as store:
        store.write("probe_write", space="restart", name="survivor")
    assert instance.stop() is True
    assert instance.running_pid() is None and not instance.pid_file.exists()
    instance.start()
    with _connect(instance, test_cypher) as store:
        assert store.read("probe_read", space="restart") == [{"name": "survivor"}]


def test_second_start_reports_running_server(instance):
    pid = instance.start()["pid"]
    again = _cli(instance, "neo4j", "start")
    assert again.returncode == 0, again.stderr
    assert f"already running (pid {pid})" in again.stdout
    assert instance.running_pid() == pid


def test_env_output_connects(instance, test_cypher):
    instance.start()
    result = _cli(instance, "neo4j", "env")
    assert result.returncode == 0, result.stderr
    words = shlex.split(result.stdout.strip())
    assert words[0] == "export"
    env = dict(word.split("=", 1) for word in words[1:])
    assert set(env) == {"NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD"}
    conn = Connection(uri=env["NEO4J_URI"], username=env["NEO4J_USERNAME"], password=env["NEO4J_PASSWORD"])
    with GraphStore.connect(conn) as store:
        assert store.read("server/gds_version") == [{"gds": "2.26.0"}]


def test_wrong_password_is_a_clear_error(instance):
    instance.start()
    with pytest.raises(StoreError, match="rejected user 'neo4j': wrong username or password"):
        GraphStore.connect(Connection(uri=instance.bolt_uri, password="not-the-password"))


def test_status_cli(instance):
    instance.start()
    result = _cli(instance, "neo4j", "status")
    assert result.returncode == 0, result.stderr
    for needle in ("2026.01.4", "2.26.0", f"bolt://127.0.0.1:{PORTS[0]}", f"http://127.0.0.1:{PORTS[1]}/browser/", "Java"):
        assert needle in result.stdout


def test_stale_pid_file_is_detected(instance):
    instance.stop()
    dead = subprocess.Popen(["true"])
    dead.wait()
    instance.pid_file.parent.mkdir(parents=True, exist_ok=True)
    instance.pid_file.write_text(f'{{"pid": {dead.pid}, "bolt_port": {PORTS[0]}, "http_port": {PORTS[1]}}}')
    assert instance.running_pid() is None
    assert not instance.pid_file.exists()
    assert instance.start()["running"]


def test_failed_start_prints_log_tail(tmp_path, instance):
    # A heap Java cannot honour makes the JVM exit at once: start must fail with a clear message.
    bad = LocalNeo4j(Settings(home=instance.home, instance=tmp_path / "bad", bolt_port=PORTS[0] + 1,
                              http_port=PORTS[1] + 1, heap="1k"))  # "Too small maximum heap"
    with pytest.raises(Exception, match="exited with code"):
        bad.start(timeout=60)
    assert bad.running_pid() is None


def test_two_starts_at_once_report_the_one_server(tmp_path, instance):
    # A fresh instance (first start sets the password too): both starts passed the "nothing runs" check,
    # both launched a Java, both reported the pid in the last-written pid file, and stop left one running.
    ports = (PORTS[0] + 3, PORTS[1] + 3)
    fresh = LocalNeo4j(Settings(home=instance.home, instance=tmp_path / "fresh", bolt_port=ports[0],
                                http_port=ports[1], heap="512m", pagecache="64m"))
    env = dict(os.environ, MEMGRAPH_HOME=str(fresh.home), MEMGRAPH_INSTANCE=str(fresh.instance),
               MEMGRAPH_BOLT_PORT=str(ports[0]), MEMGRAPH_HTTP_PORT=str(ports[1]), MEMGRAPH_HEAP="512m",
               MEMGRAPH_PAGECACHE="64m")
    env.pop("NEO4J_URI", None)
    cli = [sys.executable, "-m", "memgraph_neo4j.cli.main", "neo4j"]
    try:
        starts = [subprocess.Popen([*cli, "start"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=env) for _ in range(2)]
        outputs = [proc.communicate(timeout=600) for proc in starts]
        assert [proc.returncode for proc in starts] == [0, 0], outputs
        reported = {int(out.split(" pid ")[1].split()[0]) for out, _ in outputs}
        servers = _servers(fresh.instance)
        assert len(servers) == 1, (servers, outputs)  # one Java, not two racing for the ports
        assert reported == set(servers) == _port_holder(ports[0]), (reported, outputs)
        assert sum("already running" in out for out, _ in outputs) == 1, outputs
        status = subprocess.run([*cli, "status"], capture_output=True, text=True, env=env, timeout=120)
        assert status.returncode == 0 and f"pid {servers[0]}" in status.stdout, status
        stop = subprocess.run([*cli, "stop"], capture_output=True, text=True, env=env, timeout=120)
        assert stop.stdout.strip() == "stopped", stop
        assert _servers(fresh.instance) == [] and not _port_holder(ports[0])
        status = subprocess.run([*cli, "status"], capture_output=True, text=True, env=env, timeout=120)
        assert status.returncode == 3, status
    finally:
        for pid in _servers(fresh.instance):
            os.kill(pid, 9)


def test_stop_and_status_find_the_server_the_pid_file_lost(instance):
    pid = instance.start()["pid"]
    decoy = subprocess.Popen(["sleep", "120"])  # a live process that is not this instance's Java
    try:
        state = instance.pid_file.read_text().replace(f'"pid": {pid}', f'"pid": {decoy.pid}')
        instance.pid_file.write_text(state)
        status = _cli(instance, "neo4j", "status")
        assert status.returncode == 0 and f"running pid {pid}" in status.stdout, status
        instance.pid_file.unlink()  # no pid file at all: still this instance's server
        status = _cli(instance, "neo4j", "status")
        assert status.returncode == 0 and f"running pid {pid}" in status.stdout, status
        stop = _cli(instance, "neo4j", "stop")
        assert stop.stdout.strip() == "stopped", stop
        assert _servers(instance.instance) == [] and not _port_holder(PORTS[0])
        assert decoy.poll() is None  # the foreign process was left alone
    finally:
        decoy.kill()
        decoy.wait()


def test_a_start_after_a_kill_replays_the_log_and_keeps_what_was_committed(instance, test_cypher):
    # A kill (crash, machine stop) leaves committed writes only in the transaction log: the next start
    # must wait for the replay, tell the user, and serve the data. A fixed 180 s wait once stopped a
    # 22 GB store's recovery 6 s before its end (startup_watch).
    instance.start()
    with _connect(instance, test_cypher) as store:
        store.write("probe_write", space="killed", name="committed before the kill")
    for pid in _servers(instance.instance):
        os.kill(pid, 9)
    for _ in range(300):  # the kernel frees the ports once every thread of the process is gone
        if not _servers(instance.instance) and not any(port_open(port) for port in PORTS):
            break
        time.sleep(0.1)
    messages: list[str] = []
    info = instance.start(progress=messages.append)
    assert info["running"] and info.get("answering", True), info
    assert any(m.startswith("the database was not stopped cleanly") for m in messages), messages
    assert "recovery done" in messages or "recovery 100% done" in messages, messages
    with _connect(instance, test_cypher) as store:
        assert store.read("probe_read", space="killed") == [{"name": "committed before the kill"}]
