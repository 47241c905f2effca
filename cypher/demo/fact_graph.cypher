// Browser guide for the demo: every fact of the space with its subject and object entity, and the
// conflicts adjudication found among them (Conflict -INVOLVES-> Fact).
// :params {space: "demo"}
MATCH (s:Entity)<-[:SUBJECT]-(f:Fact {space: $space})-[:OBJECT]->(o:Entity)
OPTIONAL MATCH (c:Conflict)-[:INVOLVES]->(f)
RETURN s, f, o, c
LIMIT 300
