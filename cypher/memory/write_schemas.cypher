// The distinct Schemas of a batch with their head and tail Types (written by write_types first).
// One row per schema, not per fact: the facts of a batch share a few hundred schemas.
UNWIND $rows AS row
MERGE (s:Schema {space: $space, id: row.schema_id})
ON CREATE SET s.head_type = row.head_type, s.relation = row.relation, s.tail_type = row.tail_type,
              s.state = row.schema_state, s.declared = row.declared, s.frequency = 0,
              s.created_at = datetime(), s.embedding = row.schema_embedding, s.changed = $stamp,
              s.created = $stamp  // repository/batch.py
WITH s, row
MATCH (ht:Type {space: $space, id: row.head_type}), (tt:Type {space: $space, id: row.tail_type})
MERGE (s)-[:HEAD_TYPE]->(ht)
MERGE (s)-[:TAIL_TYPE]->(tt)
