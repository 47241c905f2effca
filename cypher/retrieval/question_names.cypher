// What a question names, in one read: its candidate spans, normalised as alias keys, looked up as
// Alias keys (the entities, $entity_keys) and as passage title keys (the passages, $title_keys), one
// index seek per key. Reading every title of the space instead cost a one-shot query ~40 ms of 1,890
// MuSiQue titles, and a second round trip. `keyed`: whether every titled passage of the space has its
// title_key (cypher/memory/bump_version); when not, no title is sought and the caller reads them all.
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH m IS NOT NULL AND m.title_keys = m.version AS keyed
CALL () {
  UNWIND $entity_keys AS key
  MATCH (:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity {space: $space})
  WITH key, collect(DISTINCT e.id) AS entity_ids
  RETURN collect([key, entity_ids]) AS entities
}
CALL (keyed) {
  UNWIND CASE WHEN keyed THEN $title_keys ELSE [] END AS key
  MATCH (p:Passage {space: $space, title_key: key})
  WITH key, p.id AS id
  ORDER BY id
  WITH key, collect(id) AS passage_ids
  RETURN collect([key, passage_ids]) AS titles
}
RETURN keyed, entities, titles
