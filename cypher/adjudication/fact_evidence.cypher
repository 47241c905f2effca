// What adjudication shows of each fact: its parts, state, qualifiers and up to $per_fact evidence
// passages, each cut to $chars characters.
UNWIND $ids AS id
MATCH (h:Entity)<-[:SUBJECT]-(f:Fact {space: $space, id: id})-[:OBJECT]->(t:Entity)
CALL (f) {
  OPTIONAL MATCH (f)-[:EVIDENCED_BY]->(p:Passage)
  WITH p ORDER BY p.id LIMIT $per_fact
  RETURN collect(CASE WHEN p IS NULL THEN null
                 ELSE {id: p.id, title: p.title, text: left(p.text, $chars)} END) AS passages
}
RETURN f.id AS id, f.text AS text, f.relation AS relation, f.time AS time, f.state AS state,
       h.id AS head_id, h.name AS head, t.id AS tail_id, t.name AS tail, h.type AS head_type,
       t.type AS tail_type, f.valid_from AS valid_from, f.valid_to AS valid_to, passages
