// The projected graph's edges with weights and the Neo4j ids behind them (for a numpy reference).
CALL gds.graph.relationshipProperty.stream($graph, 'weight') YIELD sourceNodeId, targetNodeId, propertyValue
WITH gds.util.asNode(sourceNodeId) AS s, gds.util.asNode(targetNodeId) AS t, propertyValue AS w
RETURN s.id AS source, t.id AS target, w AS weight
