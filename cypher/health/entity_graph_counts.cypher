// The entity graph of a space in numbers: entities, undirected edges between distinct entities that a
// fact links (SUBJECT/OBJECT, any fact state, parallel facts and both directions collapsed to one
// edge) and orphans (entities in no fact at all; a fact from an entity to itself is a fact, not an edge).
CALL () {
  MATCH (e:Entity {space: $space})
  RETURN count(e) AS entities,
         count(CASE WHEN NOT EXISTS { (e)<-[:SUBJECT|OBJECT]-(:Fact) } THEN 1 END) AS orphans
}
CALL () {
  MATCH (a:Entity {space: $space})<-[:SUBJECT|OBJECT]-(:Fact)-[:SUBJECT|OBJECT]->(b:Entity {space: $space})
  WHERE elementId(a) < elementId(b)
  WITH DISTINCT a, b
  RETURN count(*) AS edges
}
RETURN entities, edges, orphans
