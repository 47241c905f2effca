// Test fixture read: each fact of the space with its subject and object, the speakers whose episodes are
// SPOKEN_BY the very subject and object nodes, the fact's prompt version and the speakers of its evidence.
MATCH (f:Fact {space: $space})-[:SUBJECT]->(h:Entity), (f)-[:OBJECT]->(t:Entity)
RETURN f.relation AS relation, h.name AS head, t.name AS tail, f.prompt_version AS prompt_version,
       COLLECT { MATCH (h)<-[:SPOKEN_BY]-(p:Episode) RETURN DISTINCT p.speaker } AS head_speaks,
       COLLECT { MATCH (t)<-[:SPOKEN_BY]-(p:Episode) RETURN DISTINCT p.speaker } AS tail_speaks,
       COLLECT { MATCH (f)-[:EVIDENCED_BY]->(p:Episode) RETURN p.speaker } AS said_by
ORDER BY relation, head, tail
