"""OS-level process helpers for the server: a pid can outlive its file or be reused by another
program, and a port can be taken, so the launcher checks each before trusting it."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def pid_alive(pid: int) -> bool:
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


def cmdline(pid: int) -> str:
    return " ".join(cmdline_args(pid))


def cmdline_args(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [arg.decode(errors="replace") for arg in raw.split(b"\0")[:-1]]


def server_pids(main_class: str, home_arg: str) -> list[int]:
    """Live Java processes (oldest first) running `main_class` with exactly the argument `home_arg`: the
    servers of one instance, whatever its pid file says (a start that raced another left one unrecorded)."""
    found = []
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:  # no /proc (not Linux): no server is recognised, as before
        return []
    for entry in entries:
        if entry.name.isdigit():
            args = cmdline_args(int(entry.name))
            java = bool(args) and os.path.basename(args[0]) in ("java", "java.exe")
            if java and main_class in args and home_arg in args and pid_alive(int(entry.name)):
                found.append(int(entry.name))
    return sorted(found, key=_start_time)


def _start_time(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return 0


def _listening_inodes(port: int) -> set[str]:
    """Inodes of the sockets listening on TCP `port` (/proc/net/tcp and tcp6, state 0A)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(cols[9])
    return inodes


def holds_port(pid: int, port: int) -> bool:
    """True if process `pid` has a socket listening on TCP `port`."""
    wanted = {f"socket:[{inode}]" for inode in _listening_inodes(port)}
    if not wanted:
        return False
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(fd) in wanted:
                return True
        except OSError:
            continue
    return False


@contextmanager
def exclusive(lock_file: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """An OS file lock (flock) held for the block: one start or stop of an instance at a time. The
    kernel drops it when the process dies, so a killed launcher leaves no stale lock."""
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)  # not inherited: Neo4j must not hold it
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait:
                on_wait()
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def read_pid_file(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def write_pid_file(path: Path, state: dict) -> None:
    """Whole or not at all (a reader never sees half a file), owner-only."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mkstemp: mode 0600
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps(state))
    os.replace(tmp, path)


def terminate(pid: int, grace: float) -> bool:
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
            if not pid_alive(pid):
                return True
        time.sleep(0.2)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return False


def tail(path: Path, lines: int = 40) -> str:
    if not path.exists():
        return f"({path} does not exist)"
    with path.open("rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - 256 * 1024))
        text = fh.read().decode(errors="replace")
    return "\n".join(text.splitlines()[-lines:])
