// Retraction, step 3: recount the frequency (distinct supporting passages, the promotion's measure)
// of the marked schemas; no other schema lost support.
MATCH (s:Retracting:Schema {space: $space})
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(:Fact)-[:EVIDENCED_BY]->(p:Passage)
WITH s, count(DISTINCT p) AS frequency
SET s.frequency = frequency
RETURN count(s) AS schemas
