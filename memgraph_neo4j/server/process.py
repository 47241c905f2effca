"""OS-level process helpers for the server: a pid can outlive its file or be reused by another
program, and a port can be taken, so the launcher checks each before trusting it."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
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
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def read_pid_file(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def write_pid_file(path: Path, state: dict) -> None:
    path.write_text(json.dumps(state))


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
