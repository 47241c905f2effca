// Entities a question names: the question's candidate spans, normalised as alias keys, looked up
// through the Alias key index (one seek per span).
UNWIND $keys AS key
MATCH (:Alias {space: $space, id: key})-[:ALIAS_OF]->(e:Entity {space: $space})
RETURN key, collect(DISTINCT e.id) AS entity_ids
