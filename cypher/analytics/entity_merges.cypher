// Names that joined an entity by similarity (memory/resolve.py), newest entities first: the name, the
// entity it joined and the name it had then, the evidence (same document, shared neighbour, same value).
// Names the same after normalisation are no merge and are not listed.
// :params {space: "demo", limit: 50}
MATCH (a:Alias {space: $space})-[:ALIAS_OF]->(e:Entity)
WHERE a.merged_by IS NOT NULL
RETURN a.id AS name, e.name AS entity, e.id AS entity_id, e.type AS type, a.merged_with AS joined,
       a.merged_by AS rule, a.merge_evidence AS evidence
ORDER BY entity, name
LIMIT toInteger($limit)
