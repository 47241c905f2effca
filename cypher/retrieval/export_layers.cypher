// The three vector layers of one space (facts, schemas, passages) with what retrieval returns of
// them, one row per node, for the in-process exact search (retrieval/layers_local.py). Read once per
// memory version; rows are streamed, not collected, so the server holds no list of vectors.
CALL () {
  MATCH (f:Fact {space: $space})-[:SUBJECT]->(h:Entity), (f)-[:OBJECT]->(t:Entity)
  WHERE f.embedding IS NOT NULL
  RETURN 'fact' AS layer, f.id AS id, f.state AS state, f.text AS text, f.embedding AS embedding,
         [h.id, t.id, null] AS fields
  UNION ALL
  MATCH (s:Schema {space: $space})
  WHERE s.embedding IS NOT NULL
  RETURN 'schema' AS layer, s.id AS id, s.state AS state, null AS text, s.embedding AS embedding,
         [s.head_type, s.relation, s.tail_type] AS fields
  UNION ALL
  MATCH (p:Passage {space: $space})
  WHERE p.embedding IS NOT NULL
  RETURN 'passage' AS layer, p.id AS id, null AS state, p.text AS text, p.embedding AS embedding,
         [p.title, null, null] AS fields
}
RETURN layer, id, state, text, embedding, fields
