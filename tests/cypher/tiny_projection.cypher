// A one-node GDS projection under a given name (stands in for another space's projection).
MATCH (n) WITH n LIMIT 1
RETURN gds.graph.project($name, n, null) AS projection
