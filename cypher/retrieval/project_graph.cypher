// The heterogeneous PPR graph of one space (Entity, Type, Passage), undirected and weighted:
// entity-entity from facts (active 1.0 each, pending $pending_weight each), passage-entity mentions,
// entity-type, and similarity bridges. Passages without mentions are kept as isolated nodes.
CALL () {
  MATCH (h:Entity)<-[:SUBJECT]-(f:Fact {space: $space})-[:OBJECT]->(t:Entity)
  WHERE f.state = 'active' OR (f.state = 'pending' AND $pending_weight > 0)
  RETURN h AS source, t AS target, sum(CASE f.state WHEN 'active' THEN 1.0 ELSE $pending_weight END) AS weight
  UNION ALL
  MATCH (p:Passage {space: $space})
  OPTIONAL MATCH (p)-[:MENTIONS]->(e:Entity)
  RETURN p AS source, e AS target, 1.0 AS weight
  UNION ALL
  MATCH (e:Entity {space: $space})-[:HAS_TYPE]->(t:Type)
  WHERE $type_weight > 0
  RETURN e AS source, t AS target, $type_weight AS weight
  UNION ALL
  MATCH (a:Entity {space: $space})-[r:SIMILAR]->(b:Entity)
  RETURN a AS source, b AS target, r.weight AS weight
}
WITH gds.graph.project($graph, source, target, {
  sourceNodeLabels: labels(source), targetNodeLabels: labels(target),
  relationshipProperties: {weight: weight}
}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes, g.relationshipCount AS relationships
