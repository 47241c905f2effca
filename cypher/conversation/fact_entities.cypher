// Subject and object of each fact.
UNWIND $ids AS id
MATCH (s:Entity)<-[:SUBJECT]-(f:Fact {space: $space, id: id})-[:OBJECT]->(o:Entity)
RETURN id, s.id AS subject, o.id AS object
