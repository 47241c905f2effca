// Entity ids already known under these normalised names, by an entity's own name (its `key`) or an Alias
// (its other names), with the surface forms they already have (the writer then sends only entities that
// gain an alias), and whether the name joined by similarity (merged: where it is used is recorded,
// memory/unmerge.py). A space written before the key existed has its own names as Alias nodes until
// memory/alias_keys.py folds them; UNION keeps one row when both are there.
UNWIND $keys AS key
CALL (key) {
  MATCH (e:Entity {space: $space, key: key})
  RETURN e, false AS merged
  UNION
  MATCH (a:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity)
  RETURN e, a.merged_by IS NOT NULL AS merged
}
RETURN key, e.id AS entity_id, e.type AS type, e.aliases AS aliases, merged
