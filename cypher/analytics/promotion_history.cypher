// Stable schemas in the order they were promoted. The frequency at promotion is not stored: it is
// reconstructed as the distinct passages supporting the schema's facts written before the promotion
// (facts and their first evidence are written in the batch before it is promoted; evidence a merge
// added later to an older fact counts too). `frequency` is today's.
// :params {space: "demo", stable: "stable", limit: 50}
MATCH (s:Schema {space: $space, state: $stable})
WHERE s.promoted_at IS NOT NULL
RETURN toString(s.promoted_at) AS promoted_at, s.head_type AS head_type, s.relation AS relation,
       s.tail_type AS tail_type,
       COUNT { MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
               WHERE f.created_at <= s.promoted_at RETURN DISTINCT p } AS frequency_at_promotion,
       s.frequency AS frequency
ORDER BY s.promoted_at, relation, head_type, tail_type
LIMIT toInteger($limit)
