// Degree distribution of the (undirected, simple) projection: degree -> number of nodes with it.
CALL gds.degree.stream($graph, {concurrency: $concurrency})
YIELD score
WITH toInteger(score) AS degree, count(*) AS nodes
RETURN degree, nodes
ORDER BY degree
