// The embeddings the space already holds for some fact and schema ids of a batch (memory/writer.py): those
// facts and schemas are not embedded again. A stored fact or schema keeps the embedding it was created
// with (write_facts, write_schemas: ON CREATE), so its vector is read back instead. Index seeks on
// fact_key and schema_key (space, id); ids the space does not hold are left out.
CYPHER 25
CALL () {
  UNWIND $fact_ids AS id
  MATCH (f:Fact {space: $space, id: id})
  WHERE f.embedding IS NOT NULL
  RETURN collect({id: id, text: f.text, embedding: f.embedding}) AS facts
}
CALL () {
  UNWIND $schema_ids AS id
  MATCH (s:Schema {space: $space, id: id})
  WHERE s.embedding IS NOT NULL
  RETURN collect({id: id, embedding: s.embedding}) AS schemas
}
RETURN facts, schemas
