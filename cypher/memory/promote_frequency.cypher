// Algorithm 1, stage II: a schema's frequency = distinct passages that support its facts.
MATCH (s:Schema {space: $space})
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(:Fact)-[:EVIDENCED_BY]->(p:Passage)
WITH s, count(DISTINCT p) AS frequency
SET s.frequency = frequency
RETURN count(s) AS schemas
