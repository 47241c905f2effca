// Documents whose id starts with each given prefix (a full id matches itself first: it sorts before
// any longer id it starts), with their titles: an index seek on (space, id), at most $limit per prefix
// (repository/ids.py).
UNWIND $prefixes AS prefix
CALL (prefix) {
  MATCH (d:Document {space: $space})
  WHERE d.id STARTS WITH prefix
  RETURN d.id AS id, d.title AS label
  ORDER BY id
  LIMIT $limit
}
RETURN prefix, collect({id: id, label: label}) AS matches
