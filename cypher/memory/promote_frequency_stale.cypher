// Stage II, the first statement of a promoting batch (before its writes): the schemas of facts still
// labelled Unpromoted by an earlier transaction (a batch written without promotion: a conversation's, a
// killed run's, an unmerge's split) are recounted whole, as promote_frequency_of does. Then every
// frequency is exact before the batch, which promote_frequency_delta relies on at its end. Usually no
// such fact: one label scan.
MATCH (u:Unpromoted:Fact {space: $space})-[:INSTANCE_OF]->(s:Schema)
WHERE u.changed IS NULL OR u.changed <> $stamp
WITH DISTINCT s
OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
WHERE f.state IN $supporting
WITH s, count(DISTINCT p) AS frequency
SET s.frequency = frequency
RETURN count(s) AS schemas
