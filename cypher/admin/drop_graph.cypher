// Drop a GDS in-memory projection if it exists.
CALL gds.graph.drop($name, false) YIELD graphName RETURN graphName
