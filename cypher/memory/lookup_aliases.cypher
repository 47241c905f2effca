// Entity ids already known under these normalised names, with the surface forms they already have
// (the writer then sends only entities that gain an alias), and whether the name joined by similarity
// (merged: where it is used is recorded, memory/unmerge.py).
UNWIND $keys AS key
MATCH (a:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity)
RETURN key, e.id AS entity_id, e.type AS type, e.aliases AS aliases, a.merged_by IS NOT NULL AS merged
