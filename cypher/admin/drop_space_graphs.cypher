// Drop the GDS projections of a deleted space (names matching $pattern, see retrieval/projection.py).
CALL gds.graph.list() YIELD graphName
WITH graphName WHERE graphName =~ $pattern
CALL gds.graph.drop(graphName, false) YIELD graphName AS dropped
RETURN dropped
