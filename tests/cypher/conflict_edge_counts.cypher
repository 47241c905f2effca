// CONFLICTS_WITH edges of a space per (conflict, a, b).
MATCH (a:Fact {space: $space})-[r:CONFLICTS_WITH]->(b:Fact)
RETURN r.conflict AS conflict, a.id AS a, b.id AS b, count(r) AS edges
ORDER BY conflict, a, b
