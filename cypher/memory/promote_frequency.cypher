// Algorithm 1, stage II: a schema's frequency = distinct passages that support its facts; only facts in
// a supporting state count ($supporting, contracts.SUPPORTING): a discarded or contradicted one supports nothing.
MATCH (s:Schema {space: $space})
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
WHERE f.state IN $supporting
WITH s, count(DISTINCT p) AS frequency
SET s.frequency = frequency
RETURN count(s) AS schemas
