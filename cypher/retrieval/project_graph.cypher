// The heterogeneous PPR graph of one space (Entity, Type, Passage), undirected and weighted:
// entity-entity from facts (per fact: active 1.0, pending $pending_weight, verdict states 1.0 when
// $fact_states lets them in; a co-occurrence fact, the offline extractor's fallback, counts
// $co_occurrence_weight of that), passage-entity mentions, entity-type, and similarity bridges.
// Passages without mentions are kept as isolated nodes.
CALL () {
  MATCH (h:Entity)<-[:SUBJECT]-(f:Fact {space: $space})-[:OBJECT]->(t:Entity)
  WHERE f.state IN $fact_states AND (f.state <> $pending OR $pending_weight > 0)
  RETURN h AS source, t AS target,
         sum(CASE f.state WHEN $pending THEN $pending_weight ELSE 1.0 END
             * CASE f.relation WHEN $co_occurs THEN $co_occurrence_weight ELSE 1.0 END) AS weight
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
// Ends in one `RETURN gds.graph.project(...)`, as the graphdatascience client's project.cypher wants.
RETURN gds.graph.project($graph, source, target, {
  sourceNodeLabels: labels(source), targetNodeLabels: labels(target),
  relationshipProperties: {weight: weight}
}, {undirectedRelationshipTypes: ['*']}) AS projection
