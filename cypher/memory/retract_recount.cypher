// Retraction, step 3: recount the frequency (distinct passages of its facts in a $supporting state, the
// promotion's measure) of the marked schemas; no other schema lost support. A schema whose count moved
// is stamped ($stamp).
MATCH (s:Retracting:Schema {space: $space})
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
WHERE f.state IN $supporting
WITH s, count(DISTINCT p) AS frequency
SET s.changed = CASE WHEN s.frequency = frequency THEN s.changed ELSE $stamp END, s.frequency = frequency
RETURN count(s) AS schemas
