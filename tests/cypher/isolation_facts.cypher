// Facts of a space as keys: id, subject and object entity ids, relation, state (isolation test).
MATCH (f:Fact {space: $space})
RETURN f.id AS id, head(COLLECT { MATCH (f)-[:SUBJECT]->(h:Entity) RETURN h.id }) AS head,
       f.relation AS relation, head(COLLECT { MATCH (f)-[:OBJECT]->(t:Entity) RETURN t.id }) AS tail,
       f.state AS state
ORDER BY id
