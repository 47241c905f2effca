// What a space holds, to compare before and after: nodes per label set, relationships per type
// (both ends in the space), and every node's id, so a lost or duplicated node shows.
CALL () {
  MATCH (n) WHERE n.space = $space
  WITH reduce(key = 'node', label IN labels(n) | key + ':' + label) AS key, count(n) AS count,
       collect(coalesce(n.id, n.name, elementId(n))) AS ids
  RETURN key, count, ids
  UNION ALL
  MATCH (n)-[r]->(m) WHERE n.space = $space AND m.space = $space
  RETURN 'rel:' + type(r) AS key, count(r) AS count, [] AS ids
}
RETURN key, count, ids
