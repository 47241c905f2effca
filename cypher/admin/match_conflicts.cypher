// Conflicts whose id starts with each given prefix (a full id matches itself first: it sorts before any
// longer id it starts), labelled by type, status and facts so that an ambiguous prefix can list them: an
// index seek on (space, id), at most $limit per prefix (repository/ids.py).
UNWIND $prefixes AS prefix
CALL (prefix) {
  MATCH (c:Conflict {space: $space})
  WHERE c.id STARTS WITH prefix
  WITH c ORDER BY c.id LIMIT $limit
  WITH c, COLLECT { MATCH (c)-[:INVOLVES]->(f:Fact) RETURN f.text ORDER BY f.text } AS texts
  RETURN c.id AS id,
         c.type + ' (' + c.status + '): ' + coalesce(reduce(s = head(texts), t IN tail(texts) | s + ' / ' + t), '') AS label
}
RETURN prefix, collect({id: id, label: label}) AS matches
