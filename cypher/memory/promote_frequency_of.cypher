// Algorithm 1, stage II, incremental: recount the frequency (distinct passages of its facts in a
// $supporting state) of the schemas of facts written since the last promotion (labelled Unpromoted);
// no other schema's support changed. The full recount (promote_frequency) scanned every schema after every batch.
MATCH (:Unpromoted:Fact {space: $space})-[:INSTANCE_OF]->(s:Schema)
WITH DISTINCT s
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
WHERE f.state IN $supporting
WITH s, count(DISTINCT p) AS frequency
SET s.frequency = frequency
RETURN count(s) AS schemas
