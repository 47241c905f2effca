// Projections of one space (named mg_<space>_v<version>).
CALL gds.graph.list() YIELD graphName
WHERE graphName STARTS WITH $prefix
RETURN graphName AS graph
