// The relationships of a projection with their weights, exactly as GDS holds them (each undirected
// relationship in both directions), for the in-process PPR. Collected into three lists: one row.
CALL gds.graph.relationshipProperty.stream($graph, 'weight')
YIELD sourceNodeId, targetNodeId, propertyValue
RETURN collect(sourceNodeId) AS sources, collect(targetNodeId) AS targets, collect(propertyValue) AS weights
