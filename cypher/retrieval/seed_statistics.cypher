// The seed statistics of one query's hits (for spaces too large to hold in memory whole; see
// export_statistics): passages per entity, entities per type, entities of each hit passage with
// their passage counts (the number of passages comes from space_counts). Only passages MENTION and
// only entities HAVE_TYPE, so the counts are plain degrees, which Neo4j reads without walking them.
CALL () {
  UNWIND $entity_ids AS id
  MATCH (e:Entity {space: $space, id: id})
  RETURN collect([id, COUNT { (e)<-[:MENTIONS]-() }]) AS entity_passages
}
CALL () {
  UNWIND $type_ids AS id
  MATCH (t:Type {space: $space, id: id})
  RETURN collect([id, COUNT { (t)<-[:HAS_TYPE]-() }]) AS type_degree
}
CALL () {
  UNWIND $passage_ids AS id
  MATCH (p:Passage {space: $space, id: id})-[:MENTIONS]->(e:Entity)
  RETURN collect([id, e.id, COUNT { (e)<-[:MENTIONS]-() }]) AS passage_mentions
}
RETURN entity_passages, type_degree, passage_mentions
