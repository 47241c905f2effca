// What a query reads of the memory before its vector is ready, in one round trip: the memory's write
// version and this space's PPR projections (names starting with $prefix), as in memory_layers, and the
// question's names (name keys $entity_keys -> entity ids, title keys $title_keys
// -> passage ids; `keyed`: every titled passage has its title_key, else no title is sought). Two reads
// before (the version check, then the names) cost a long-lived MuSiQue search two round trips after the
// embedding; this one runs while the question is embedded.
CYPHER 25
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH coalesce(m.version, 0) AS version, m IS NOT NULL AND m.title_keys = m.version AS keyed
CALL () {
  CALL gds.graph.list() YIELD graphName
  WHERE graphName STARTS WITH $prefix
  RETURN collect(graphName) AS graphs
}
CALL () {
  UNWIND $entity_keys AS key
  CALL (key) {  // an entity's own name is its key, its other names Alias nodes (memory/lookup_aliases)
    MATCH (e:Entity {space: $space, key: key})
    RETURN e.id AS id
    UNION
    MATCH (:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity {space: $space})
    RETURN e.id AS id
  }
  WITH key, collect(DISTINCT id) AS entity_ids
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
RETURN version, graphs, keyed, entities, titles
