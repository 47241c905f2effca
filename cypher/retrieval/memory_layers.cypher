// Multi-layer retrieval in one round trip: top facts (with subject and object), schemas and passages
// by cosine from the three vector indexes of one space. Neo4j scores cosine as (1 + cos) / 2.
CALL (*) {
  CALL db.index.vector.queryNodes('fact_embedding', $fetch_facts, $vector) YIELD node, score
  WITH node AS f, 2 * score - 1 AS score
  WHERE f.space = $space AND f.state IN $fact_states
  MATCH (f)-[:SUBJECT]->(h:Entity), (f)-[:OBJECT]->(t:Entity)
  WITH f, score, h, t ORDER BY score DESC LIMIT $k_facts
  RETURN collect({id: f.id, text: f.text, score: score, head_id: h.id, tail_id: t.id}) AS facts
}
CALL (*) {
  CALL db.index.vector.queryNodes('schema_embedding', $fetch_schemas, $vector) YIELD node, score
  WITH node AS s, 2 * score - 1 AS score
  WHERE s.space = $space AND s.state IN $schema_states
  WITH s, score ORDER BY score DESC LIMIT $k_schemas
  RETURN collect({id: s.id, head_type: s.head_type, relation: s.relation, tail_type: s.tail_type, score: score}) AS schemas
}
CALL (*) {
  CALL db.index.vector.queryNodes('passage_embedding', $fetch_passages, $vector) YIELD node, score
  WITH node AS p, 2 * score - 1 AS score
  WHERE p.space = $space
  WITH p, score ORDER BY score DESC LIMIT $k_passages
  RETURN collect({id: p.id, title: p.title, score: score}) AS passages
}
RETURN facts, schemas, passages
