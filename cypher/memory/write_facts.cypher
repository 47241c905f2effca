// Facts aligned to their Schema (written by write_schemas first), grounded in their Passage,
// linked to subject and object. Every fact written is labelled Unpromoted until promotion has seen it.
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id})
MATCH (h:Entity {space: $space, id: row.head_id}), (t:Entity {space: $space, id: row.tail_id})
MATCH (s:Schema {space: $space, id: row.schema_id})
MERGE (f:Fact {space: $space, id: row.id})
ON CREATE SET f.head = row.head, f.relation = row.relation, f.tail = row.tail, f.time = row.time,
              f.relation_raw = row.relation_raw, f.text = row.text, f.state = row.state, f.embedding = row.embedding,
              f.extractor = row.extractor, f.model = row.model, f.prompt_version = row.prompt_version,
              f.ontology_version = row.ontology_version, f.created_at = datetime(), f.created = $stamp
// evidenced again after a retraction
ON MATCH SET f.state = CASE WHEN f.state = $retracted THEN row.state ELSE f.state END
// new support for its schema: the next promotion recounts it (kill-safe marker)
SET f:Unpromoted, f.changed = coalesce($stamp, f.changed)
MERGE (f)-[:INSTANCE_OF]->(s)
MERGE (f)-[:SUBJECT]->(h)
MERGE (f)-[:OBJECT]->(t)
MERGE (f)-[:EVIDENCED_BY]->(p)
