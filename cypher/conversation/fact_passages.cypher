// The passages (episodes) that evidence each fact, at most $per_fact per fact, earliest first.
UNWIND $ids AS id
MATCH (f:Fact {space: $space, id: id})-[:EVIDENCED_BY]->(p:Passage)
WITH id, p ORDER BY p.time, p.id
WITH id, collect(p.id)[..$per_fact] AS passages
RETURN id, passages
