// The frequency (distinct passages of its facts in a $supporting state, the promotion's measure) of
// these schemas, recounted after a change that moved support (undone verdicts: memory/promotion.demote_below_bar).
// A schema whose count moved is stamped ($stamp).
UNWIND $ids AS id
MATCH (s:Schema {space: $space, id: id})
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
WHERE f.state IN $supporting
WITH s, count(DISTINCT p) AS frequency
SET s.changed = CASE WHEN s.frequency = frequency THEN s.changed ELSE $stamp END, s.frequency = frequency
RETURN count(s) AS schemas
