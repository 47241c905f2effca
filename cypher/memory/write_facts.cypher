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
// evidenced again after a retraction (a retracted fact has no evidence left: retract_facts)
ON MATCH SET f.state = CASE WHEN f.state = $retracted THEN row.state ELSE f.state END
// new support for its schema: the next promotion recounts it (kill-safe marker)
SET f:Unpromoted, f.changed = coalesce($stamp, f.changed),
// the time qualifier's interval (memory/timespan.py; the same for every row of one id, which hashes the
// qualifier): valid_at only moved earlier (conversation/set_valid_at may have set it from a message);
// invalid_at the text's end unless the conversation rule set it (invalidate_changed, which keeps the
// earlier of the two by stated_invalid_at)
    f.valid_at = CASE WHEN row.valid_at IS NOT NULL AND (f.valid_at IS NULL OR row.valid_at < f.valid_at)
                      THEN row.valid_at ELSE f.valid_at END,
    f.stated_invalid_at = row.invalid_at,
    f.invalid_at = CASE WHEN f.invalidated_by IS NULL THEN coalesce(row.invalid_at, f.invalid_at) ELSE f.invalid_at END
MERGE (f)-[:INSTANCE_OF]->(s)
MERGE (f)-[:SUBJECT]->(h)
MERGE (f)-[:OBJECT]->(t)
// created: the batch that added this evidence (promote_frequency_delta counts only new support)
MERGE (f)-[e:EVIDENCED_BY]->(p)
ON CREATE SET e.created = $stamp
