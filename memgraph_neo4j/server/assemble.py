"""The Neo4j + GDS distribution, assembled from Maven Central so no Docker or tarball is needed.

    dist/neo4j-<v>-gds-<v>/lib       every jar on the classpath (Neo4j, GDS, Browser)
    dist/neo4j-<v>-gds-<v>/plugins   the GDS jars again: Neo4j scans plugin jars for procedures

It is shared by every instance, so a second instance (tests) downloads nothing, and Maven's local
repository (~/.m2) makes a re-assembly offline too. Without `mvn` on PATH, Apache Maven itself is
fetched next to it (dist/apache-maven-<v>, see maven.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from memgraph_neo4j import versions
from memgraph_neo4j.server.errors import LauncherError

GDS_GROUP = "org.neo4j.gds"


def dist_dir(home: Path) -> Path:
    return home / "dist" / f"neo4j-{versions.NEO4J_VERSION}-gds-{versions.GDS_VERSION}"


def is_assembled(dist: Path) -> bool:
    return (dist / "assembled.json").exists()


def assemble(dist: Path, quiet: bool = False, maven: str = "auto", repository: str | None = None,
             progress=None) -> Path:
    """Resolve every jar from Maven Central with Maven (re-uses ~/.m2); no-op when done.

    `maven`: "auto" runs `mvn` from PATH and fetches Apache Maven only without one; "fetch" always
    uses the fetched Maven. `repository` is where Maven itself is fetched from (default Maven Central)."""
    if is_assembled(dist):
        return dist
    # imported here: every command that opens the store imports this module, and the fetching code
    # (urllib, tqdm) cost a one-shot `query` ~15 ms of imports (measured under load)
    from memgraph_neo4j.server.maven import MAVEN_CENTRAL, find_maven

    repository = repository or MAVEN_CENTRAL
    mvn = find_maven(dist.parent, maven, repository, quiet=quiet, progress=progress)
    staging = dist.with_name(dist.name + ".partial")
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
        cmd = [str(mvn.executable), "-B", "-f", str(pom), goal, f"-DoutputDirectory={out_dir}", *props, *extra]
        if quiet:
            cmd.insert(2, "-q")
        proc = subprocess.run(cmd, capture_output=quiet, text=True, env=mvn.env)
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
                "maven": {"executable": str(mvn.executable), "fetched": mvn.fetched},
            },
            indent=2,
        )
    )
    shutil.rmtree(dist, ignore_errors=True)
    staging.rename(dist)
    return dist


def assembled_size(dist: Path) -> int:
    return sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
