// Neo4j, GDS and Java versions of the running server.
CALL dbms.components() YIELD name, versions, edition
WITH versions[0] AS neo4j, edition
OPTIONAL CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes
RETURN neo4j, edition, gds.version() AS gds, attributes.VmVersion.value AS java_vm, attributes.SpecVersion.value AS java_spec
