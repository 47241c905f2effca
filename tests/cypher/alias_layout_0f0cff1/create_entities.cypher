// The layout before issue 32 (cypher/memory/create_entities.cypher at 0f0cff1), for tests/integration/test_alias_keys.py:
// every normalised name of an entity an Alias node, its own name too (rows now carry that one as
// `key`, apart from `keys`), no `key` on the entity.
// Entities this batch knows to be new (no Alias of any of their names is stored, so their content-hash
// ids cannot exist yet): CREATE, not MERGE, with their Type link and one Alias node per normalised name.
// The uniqueness constraints still guard them: a concurrent writer that created one first makes the
// transaction fail, and the batch is written again with MERGE (write_entities).
UNWIND $rows AS row
MATCH (t:Type {space: $space, id: row.type})  // written by write_types first
CREATE (e:Entity {space: $space, id: row.id, name: row.name, type: row.type, aliases: row.aliases,
                  aliases_text: reduce(s = '', a IN row.aliases | s + ' | ' + a),
                  created_at: datetime(), embedding: row.embedding, changed: $stamp})  // repository/batch.py
CREATE (e)-[:HAS_TYPE]->(t)
WITH e, row
UNWIND [k IN [row.key] WHERE k IS NOT NULL] + row.keys AS key
// a name that joined by similarity says so (resolve.py: the rule, the evidence, the name it joined)
CREATE (:Alias {space: $space, id: key, entity_id: e.id, merged_by: row.merged[key].rule,
                merge_evidence: row.merged[key].evidence, merged_with: row.merged[key].with})-[:ALIAS_OF]->(e)
