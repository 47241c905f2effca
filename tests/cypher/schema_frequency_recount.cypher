// Every schema's stored frequency beside a full recount (distinct passages of its facts in a $supporting
// state): the measure promote_frequency_delta keeps from deltas.
MATCH (s:Schema {space: $space})
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
WHERE f.state IN $supporting
WITH s, count(DISTINCT p) AS recount
RETURN s.relation AS relation, s.frequency AS frequency, recount
ORDER BY relation, recount
