// Average local clustering coefficient over every node of the projection (GDS gives nodes of degree
// < 2 the coefficient 0, and they count in the average).
CALL gds.localClusteringCoefficient.stats($graph, {concurrency: $concurrency})
YIELD averageClusteringCoefficient, nodeCount
RETURN averageClusteringCoefficient AS average, nodeCount AS nodes
