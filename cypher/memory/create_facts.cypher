// Facts this batch knows to be new (their subject or object is a new entity, and fact ids hash the
// entity ids): CREATE with their Schema, subject, object and every passage of the batch that evidences
// them (row.passage_ids). Labelled Unpromoted like write_facts. The uniqueness constraint still
// guards them (see create_entities). valid_at / invalid_at as write_facts gives them.
UNWIND $rows AS row
MATCH (h:Entity {space: $space, id: row.head_id}), (t:Entity {space: $space, id: row.tail_id})
MATCH (s:Schema {space: $space, id: row.schema_id})
CREATE (f:Fact:Unpromoted {space: $space, id: row.id, head: row.head, relation: row.relation, tail: row.tail,
                           time: row.time, relation_raw: row.relation_raw, text: row.text, state: row.state,
                           embedding: row.embedding, extractor: row.extractor, model: row.model,
                           prompt_version: row.prompt_version, ontology_version: row.ontology_version,
                           // the time qualifier's interval (memory/timespan.py); stated_invalid_at keeps
                           // the text's own end beside the conversation rule's (invalidate_changed)
                           valid_at: row.valid_at, invalid_at: row.invalid_at, stated_invalid_at: row.invalid_at,
                           created_at: datetime(), changed: $stamp, created: $stamp})  // repository/batch.py
CREATE (f)-[:INSTANCE_OF]->(s), (f)-[:SUBJECT]->(h), (f)-[:OBJECT]->(t)
WITH f, row
UNWIND row.passage_ids AS passage_id
MATCH (p:Passage {space: $space, id: passage_id})
CREATE (f)-[:EVIDENCED_BY {created: $stamp}]->(p)  // the batch that added it: promote_frequency_delta
