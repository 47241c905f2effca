"""The one place that names the Neo4j, GDS and Browser versions we assemble and test against.

GDS 2.26 is the release matched to Neo4j 2026.01 (the newest matched pair Maven Central serves);
weighted PageRank seeds (`sourceNodes: [[node, weight], ...]`) need GDS >= 2.17.
docker-compose.yml pins the same versions.
"""

NEO4J_VERSION = "2026.01.4"
GDS_VERSION = "2.26.0"
BROWSER_VERSION = "5.24.0"
MIN_JAVA = 21
# Apache Maven the launcher fetches from Maven Central when `mvn` is not on PATH
MAVEN_VERSION = "3.9.16"
