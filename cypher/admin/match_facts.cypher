// Facts (any state) whose id starts with each given prefix (a full id matches itself first: it sorts
// before any longer id it starts), with their texts: an index seek on (space, id), at most $limit per
// prefix (repository/ids.py).
UNWIND $prefixes AS prefix
CALL (prefix) {
  MATCH (f:Fact {space: $space})
  WHERE f.id STARTS WITH prefix
  RETURN f.id AS id, f.text AS label
  ORDER BY id
  LIMIT $limit
}
RETURN prefix, collect({id: id, label: label}) AS matches
