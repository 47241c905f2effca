// The seed statistics of a whole space at one memory version, read once per version by the
// retriever: every passage-entity mention and the entities per type (the passage count comes from
// space_counts).
CALL () {
  MATCH (p:Passage {space: $space})-[:MENTIONS]->(e:Entity)
  RETURN collect(p.id) AS mention_passages, collect(e.id) AS mention_entities
}
CALL () {
  MATCH (t:Type {space: $space})
  RETURN collect([t.id, COUNT { (t)<-[:HAS_TYPE]-() }]) AS type_degree
}
RETURN mention_passages, mention_entities, type_degree
