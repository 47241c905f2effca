// What the seed formulas need: passages per entity (HippoRAG-2 weighting, IDF), entities per
// type (hub suppression), entities per hit passage (density), and the number of passages.
CALL () {
  MATCH (p:Passage {space: $space}) RETURN count(p) AS passages
}
CALL (passages) {
  UNWIND $entity_ids AS id
  MATCH (e:Entity {space: $space, id: id})
  RETURN collect([id, COUNT { (e)<-[:MENTIONS]-(:Passage) }]) AS entity_passages
}
CALL () {
  UNWIND $type_ids AS id
  MATCH (t:Type {space: $space, id: id})
  RETURN collect([id, COUNT { (t)<-[:HAS_TYPE]-(:Entity) }]) AS type_degree
}
CALL () {
  UNWIND $passage_ids AS id
  MATCH (p:Passage {space: $space, id: id})
  OPTIONAL MATCH (p)-[:MENTIONS]->(e:Entity)
  WITH id, e, CASE WHEN e IS NULL THEN null ELSE COUNT { (e)<-[:MENTIONS]-(:Passage) } END AS df
  RETURN collect([id, e.id, df]) AS passage_mentions
}
RETURN passages, entity_passages, type_degree, passage_mentions
