// Entities with their aliases and type (the Type written by write_types first): the entity's own name is
// its `key`, set when it is created (schema/16_entity_name_key); Alias nodes make its other names' lookups
// an index seek.
UNWIND $rows AS row
MERGE (e:Entity {space: $space, id: row.id})
ON CREATE SET e.name = row.name, e.type = row.type, e.aliases = [], e.created_at = datetime(),
              e.embedding = row.embedding, e.key = row.key
WITH e, row, [a IN row.aliases WHERE NOT a IN e.aliases] AS fresh
SET e.aliases = e.aliases + fresh,
    e.aliases_text = reduce(s = '', a IN e.aliases + fresh | s + ' | ' + a),
    e.changed = coalesce($stamp, e.changed)  // repository/batch.py
WITH e, row
MATCH (t:Type {space: $space, id: e.type})  // written by write_types first
MERGE (e)-[:HAS_TYPE]->(t)
WITH e, row
UNWIND row.keys AS key
MERGE (a:Alias {space: $space, id: key})
// a name that joined by similarity says so (resolve.py: the rule, the evidence, the name it joined)
ON CREATE SET a.entity_id = e.id, a.merged_by = row.merged[key].rule, a.merge_evidence = row.merged[key].evidence,
              a.merged_with = row.merged[key].with
MERGE (a)-[:ALIAS_OF]->(e)
