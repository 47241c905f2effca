// Names of the GDS projections that exist (test_health checks that its projection was dropped).
CALL gds.graph.list() YIELD graphName
RETURN graphName AS name
