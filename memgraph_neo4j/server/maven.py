"""Which `mvn` assembles the distribution: the one on PATH, else Apache Maven fetched from Maven Central
(or a mirror) into home/dist, so Python is the only prerequisite.

The fetched Maven is checked against the strongest checksum the repository publishes, extracted with
tarfile's "data" filter (no paths outside the target, no device files), and moved into place with one
rename, so concurrent first runs leave either nothing or a complete copy; the next run reuses it.
"""

from __future__ import annotations

import errno
import hashlib
import http.client
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from memgraph_neo4j import versions
from memgraph_neo4j.server.errors import LauncherError
from memgraph_neo4j.server.java import find_java
from memgraph_neo4j.server.truststore import java_trust_options, write_trust_store

MAVEN_CENTRAL = "https://repo1.maven.org/maven2"
# Strongest first: Maven Central publishes .sha1 for every file, .sha512 (and .sha256) for newer ones.
CHECKSUMS = ("sha512", "sha256", "sha1")
CHUNK = 1 << 16
TIMEOUT = 60.0


@dataclass(frozen=True)
class Maven:
    """An `mvn` to run and the environment to run it in (None: inherit ours)."""

    executable: Path
    fetched: bool
    env: dict[str, str] | None = field(default=None, compare=False, repr=False)


def archive_name(version: str) -> str:
    return f"apache-maven-{version}-bin.tar.gz"


def archive_url(repository: str, version: str) -> str:
    return f"{repository.rstrip('/')}/org/apache/maven/apache-maven/{version}/{archive_name(version)}"


def maven_home(tools_dir: Path, version: str = versions.MAVEN_VERSION) -> Path:
    return tools_dir / f"apache-maven-{version}"


def _mvn_in(home: Path) -> Path:
    return home / "bin" / ("mvn.cmd" if os.name == "nt" else "mvn")


def find_maven(tools_dir: Path, mode: str = "auto", repository: str = MAVEN_CENTRAL,
               version: str = versions.MAVEN_VERSION, quiet: bool = False, progress=None) -> Maven:
    """PATH's `mvn` in "auto" mode; else (or without one) the fetched Maven, run with our Java."""
    if mode not in ("auto", "fetch"):
        raise LauncherError(f"unknown Maven mode {mode!r} (MEMGRAPH_MAVEN): use 'auto' or 'fetch'")
    on_path = shutil.which("mvn") if mode == "auto" else None
    if on_path:
        return Maven(Path(on_path), fetched=False)
    home = maven_home(tools_dir, version)
    if not _mvn_in(home).exists():
        if progress:
            why = "MEMGRAPH_MAVEN=fetch" if mode == "fetch" else "no `mvn` on PATH"
            progress(f"fetching Apache Maven {version} from {repository.rstrip('/')} ({why}) ...")
        fetch_maven(tools_dir, version, repository, quiet=quiet)
    return Maven(_mvn_in(home), fetched=True, env=fetched_maven_env(tools_dir))


def fetched_maven_env(tools_dir: Path) -> dict[str, str]:
    """Our Java (JAVA_HOME), trusting the system's CAs as Python does unless the user names a store.

    JDK_JAVA_OPTIONS, not MAVEN_OPTS: the mvn script splits MAVEN_OPTS on spaces, the Java launcher
    honours quotes, and data directories have spaces (macOS: "Application Support")."""
    env = dict(os.environ, JAVA_HOME=str(find_java().executable.parent.parent))
    given = " ".join(env.get(name, "") for name in ("MAVEN_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"))
    if "javax.net.ssl.trustStore" not in given:
        store = write_trust_store(tools_dir / "maven-truststore.jks")
        if store is not None:
            quoted = [f'"{option}"' for option in java_trust_options(store)]
            env["JDK_JAVA_OPTIONS"] = " ".join([env.get("JDK_JAVA_OPTIONS", ""), *quoted]).strip()
    return env


def fetch_maven(tools_dir: Path, version: str = versions.MAVEN_VERSION, repository: str = MAVEN_CENTRAL,
                quiet: bool = False) -> Path:
    """Download, verify and extract Apache Maven into tools_dir; returns its home (reused if present)."""
    home = maven_home(tools_dir, version)
    if _mvn_in(home).exists():
        return home
    tools_dir.mkdir(parents=True, exist_ok=True)
    url = archive_url(repository, version)
    algorithm, expected = _published_checksum(url)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{archive_name(version)}.", suffix=".part", dir=tools_dir)
    archive = Path(tmp_name)
    staging = Path(tempfile.mkdtemp(prefix=f".{home.name}.", suffix=".partial", dir=tools_dir))
    try:
        with os.fdopen(fd, "wb") as out:
            actual = _download(url, out, algorithm, quiet)
        if actual != expected:
            raise LauncherError(
                f"checksum mismatch for {url}: {algorithm} is {actual}, the repository publishes {expected}; "
                "the download is corrupt or the mirror (MEMGRAPH_MAVEN_REPOSITORY) serves another file"
            )
        _extract(archive, staging)
        extracted = staging / home.name
        if not _mvn_in(extracted).exists():
            raise LauncherError(f"{url} holds no {home.name}/bin/mvn: not an Apache Maven binary archive")
        _move_into_place(extracted, home)
    finally:
        archive.unlink(missing_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
    return home


def _network_error(url: str, exc: urllib.error.URLError) -> LauncherError:
    return LauncherError(
        f"could not download {url}: {getattr(exc, 'reason', exc)}; check the network, set "
        "MEMGRAPH_MAVEN_REPOSITORY to a Maven Central mirror, or install Maven (`mvn`) and retry"
    )


def _open(url: str):
    try:
        return urllib.request.urlopen(url, timeout=TIMEOUT)
    except urllib.error.URLError as exc:
        raise _network_error(url, exc) from exc


def _not_published(exc: urllib.error.URLError) -> bool:
    if isinstance(exc, urllib.error.HTTPError):
        return exc.code in (403, 404)
    return isinstance(exc.reason, FileNotFoundError)  # file:// repositories


def _published_checksum(url: str) -> tuple[str, str]:
    """(algorithm, hex digest) of the strongest checksum published next to `url`."""
    for algorithm in CHECKSUMS:
        try:
            with urllib.request.urlopen(f"{url}.{algorithm}", timeout=TIMEOUT) as resp:
                text = resp.read(4096).decode("ascii", errors="replace")
        except urllib.error.URLError as exc:
            if _not_published(exc):
                continue
            raise _network_error(f"{url}.{algorithm}", exc) from exc
        words = text.split()
        if words:  # "<hex>" or "<hex>  <file name>"
            return algorithm, words[0].lower()
    raise LauncherError(f"no checksum ({', '.join(CHECKSUMS)}) is published for {url}: refusing to run it unverified")


def _download(url: str, out, algorithm: str, quiet: bool) -> str:
    digest, received = hashlib.new(algorithm), 0
    with _open(url) as resp:
        total = int(resp.headers.get("Content-Length") or 0) or None
        with tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=url.rsplit("/", 1)[-1],
                  disable=True if quiet else None, leave=False) as bar:
            try:
                while chunk := resp.read(CHUNK):
                    out.write(chunk)
                    digest.update(chunk)
                    received += len(chunk)
                    bar.update(len(chunk))
            except (OSError, http.client.HTTPException) as exc:  # the connection broke mid-download
                raise LauncherError(f"downloading {url} failed after {received} bytes: {exc!r}; retry") from exc
    if total is not None and received != total:  # read(n) returns b"" when the peer closes early
        raise LauncherError(f"downloading {url} failed after {received} of {total} bytes: "
                            "the connection closed early; retry")
    return digest.hexdigest()


def _extract(archive: Path, target: Path) -> None:
    if not hasattr(tarfile, "data_filter"):  # Python < 3.11.4
        raise LauncherError("extracting Maven safely needs Python >= 3.11.4 (tarfile filters); upgrade Python")
    try:
        with tarfile.open(archive, "r:gz") as tar:
            tar.extractall(target, filter="data")
    except (tarfile.TarError, OSError) as exc:
        raise LauncherError(f"could not extract {archive.name}: {exc}") from exc


def _move_into_place(extracted: Path, home: Path) -> None:
    """One rename; if another process got there first, its complete copy wins and ours is dropped."""
    try:
        os.rename(extracted, home)
    except OSError as exc:
        if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY) or not _mvn_in(home).exists():
            raise LauncherError(f"could not move Maven into {home}: {exc}; remove {home} and retry") from exc
