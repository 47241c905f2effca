// The nodes a projection of one space can hold, keyed by GDS's node id (the Neo4j internal id,
// which is what a Cypher projection uses), for the in-process PPR. Collected into lists: one row.
CALL () {
  MATCH (n:Entity {space: $space}) RETURN n, 'entity' AS kind, n.name AS name
  UNION ALL
  MATCH (n:Type {space: $space}) RETURN n, 'type' AS kind, n.id AS name
  UNION ALL
  MATCH (n:Passage {space: $space}) RETURN n, 'passage' AS kind, n.title AS name
}
// by id within a kind: the local engine breaks ties by row, so by id, as cypher/retrieval/ppr_all does
WITH n, kind, name ORDER BY kind, n.id
// names through a map: collect() drops nulls, and a passage without a title has none
WITH collect({key: id(n), kind: kind, id: n.id, name: name}) AS rows
RETURN [r IN rows | r.key] AS keys, [r IN rows | r.kind] AS kinds, [r IN rows | r.id] AS ids,
       [r IN rows | r.name] AS names
