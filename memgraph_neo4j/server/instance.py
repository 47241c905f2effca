"""What an instance folder needs before Neo4j runs: neo4j.conf, rewritten from Settings at every
start so the folder never drifts from them, and the initial password, set once before first start."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

from memgraph_neo4j.server.browser_style import post_connect_command
from memgraph_neo4j.server.errors import LauncherError
from memgraph_neo4j.server.java import Java

ADMIN_CLASS = "org.neo4j.cli.AdminTool"


def write_conf(instance: Path, conf_dir: Path, plugins_dir: Path, *, bolt_port: int, http_port: int,
               pagecache: str) -> None:
    for sub in ("conf", "data", "logs", "run", "import"):
        (instance / sub).mkdir(parents=True, exist_ok=True)
    conf = f"""# Written by memgraph-neo4j at every start; edit Settings (MEMGRAPH_*) instead.
server.default_listen_address=127.0.0.1
server.default_advertised_address=127.0.0.1
server.bolt.listen_address=127.0.0.1:{bolt_port}
server.bolt.advertised_address=127.0.0.1:{bolt_port}
server.http.listen_address=127.0.0.1:{http_port}
server.http.advertised_address=127.0.0.1:{http_port}
server.https.enabled=false
server.memory.pagecache.size={pagecache}
dbms.security.auth_enabled=true
dbms.security.procedures.unrestricted=gds.*
dbms.usage_report.enabled=false
server.directories.data={instance / 'data'}
server.directories.logs={instance / 'logs'}
server.directories.run={instance / 'run'}
server.directories.import={instance / 'import'}
server.directories.plugins={plugins_dir}
"""
    if style := post_connect_command():  # Browser applies cypher/browser/style.grass at every connect
        conf += f"browser.post_connect_cmd={style}\n"
    (conf_dir / "neo4j.conf").write_text(conf)


def ensure_password(instance: Path, password_file: Path, java: Java, lib_dir: Path, env: dict[str, str]) -> None:
    """First start only: set a random initial password before the database ever runs."""
    if password_file.exists():
        return
    if (instance / "data" / "dbms" / "auth.ini").exists() or (instance / "data" / "databases").exists():
        raise LauncherError(
            f"{instance} holds a database but no password file ({password_file}); "
            "restore the file, or delete the instance folder to start afresh"
        )
    password = secrets.token_hex(16)  # hex: a leading "-" would read as an admin-tool option
    cmd = [str(java.executable), "-cp", str(lib_dir / "*"), ADMIN_CLASS,
           "dbms", "set-initial-password", password]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if proc.returncode != 0:
        raise LauncherError(f"setting the initial password failed:\n{proc.stdout}\n{proc.stderr}")
    fd = os.open(password_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(password + "\n")
    os.chmod(password_file, 0o600)
