// Entity ids already known under these normalised names.
UNWIND $keys AS key
MATCH (:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity)
RETURN key, e.id AS entity_id, e.type AS type
