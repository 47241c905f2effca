// Facts aligned to their Schema, grounded in their Passage, linked to subject and object.
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id})
MATCH (h:Entity {space: $space, id: row.head_id}), (t:Entity {space: $space, id: row.tail_id})
MERGE (s:Schema {space: $space, id: row.schema_id})
ON CREATE SET s.head_type = row.head_type, s.relation = row.relation, s.tail_type = row.tail_type,
              s.state = row.schema_state, s.declared = row.declared, s.frequency = 0,
              s.created_at = datetime(), s.embedding = row.schema_embedding
MERGE (ht:Type {space: $space, id: row.head_type}) ON CREATE SET ht.name = row.head_type
MERGE (tt:Type {space: $space, id: row.tail_type}) ON CREATE SET tt.name = row.tail_type
MERGE (s)-[:HEAD_TYPE]->(ht)
MERGE (s)-[:TAIL_TYPE]->(tt)
MERGE (f:Fact {space: $space, id: row.id})
ON CREATE SET f.head = row.head, f.relation = row.relation, f.tail = row.tail, f.time = row.time,
              f.relation_raw = row.relation_raw, f.text = row.text, f.state = row.state, f.embedding = row.embedding,
              f.extractor = row.extractor, f.model = row.model, f.prompt_version = row.prompt_version,
              f.ontology_version = row.ontology_version, f.created_at = datetime()
MERGE (f)-[:INSTANCE_OF]->(s)
MERGE (f)-[:SUBJECT]->(h)
MERGE (f)-[:OBJECT]->(t)
MERGE (f)-[:EVIDENCED_BY]->(p)
