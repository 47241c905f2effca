// Entity ids already known under these normalised names, with the surface forms they already have
// (the writer then sends only entities that gain an alias).
UNWIND $keys AS key
MATCH (:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity)
RETURN key, e.id AS entity_id, e.type AS type, e.aliases AS aliases
