"""What an instance folder needs before Neo4j runs: neo4j.conf, rewritten from Settings at every
start so the folder never drifts from them, and the initial password, set once before first start.

The folder is the owner's alone (0700, files 0600): the database files hold the passages' text in the
clear (there is no encryption at rest), so other local users must not read them. `secure` also fixes
the modes of instances made before this rule, and every JVM of an instance runs with UMASK.
"""

from __future__ import annotations

import os
import secrets
import stat
import subprocess
from pathlib import Path

from memgraph_neo4j.server.browser_style import post_connect_command
from memgraph_neo4j.server.errors import LauncherError
from memgraph_neo4j.server.java import Java

ADMIN_CLASS = "org.neo4j.cli.AdminTool"
UMASK = 0o077  # what Neo4j and its admin tool create is 0600 / 0700
SUBDIRS = ("conf", "data", "logs", "run", "import")


def make_dirs(instance: Path) -> None:
    """The instance folder and its sub-folders, owner-only."""
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    for sub in SUBDIRS:
        (instance / sub).mkdir(mode=0o700, exist_ok=True)


def secure(instance: Path) -> None:
    """Folders 0700 and files 0600 under `instance` (symbolic links are left alone)."""
    for root, dirs, files in os.walk(instance):
        for name, mode in [(root, 0o700)] + [(os.path.join(root, f), 0o600) for f in files]:
            try:
                st = os.lstat(name)
                if not stat.S_ISLNK(st.st_mode) and stat.S_IMODE(st.st_mode) != mode:
                    os.chmod(name, mode)
            except FileNotFoundError:  # a log rotated away meanwhile
                continue
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]


def write_conf(instance: Path, conf_dir: Path, plugins_dir: Path, *, bolt_port: int, http_port: int,
               pagecache: str) -> None:
    make_dirs(instance)
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
    _write_private(conf_dir / "neo4j.conf", conf)


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.chmod(path, 0o600)  # an existing file keeps its mode through O_CREAT


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
    # The admin tool (picocli) reads its arguments from an @-file: on its command line the password
    # was readable by every local user (ps, /proc/<pid>/cmdline) while it ran.
    arguments = instance / "run" / f"initial-password-{secrets.token_hex(4)}.args"
    _write_private(arguments, f"dbms\nset-initial-password\n{password}\n")
    try:
        cmd = [str(java.executable), "-cp", str(lib_dir / "*"), ADMIN_CLASS, f"@{arguments}"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, umask=UMASK)
    finally:
        arguments.unlink(missing_ok=True)
    if proc.returncode != 0:
        raise LauncherError(f"setting the initial password failed:\n{proc.stdout}\n{proc.stderr}")
    _write_private(password_file, password + "\n")
