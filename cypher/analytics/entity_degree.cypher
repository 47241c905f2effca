// Entities by degree: the facts (any state) they are the subject or object of, the distinct entities
// those facts link them to, and the passages mentioning them. Hubs first.
// :params {space: "demo", limit: 50}
MATCH (e:Entity {space: $space})
WITH e, COUNT { (e)<-[:SUBJECT|OBJECT]-(:Fact) } AS facts
ORDER BY facts DESC, e.name LIMIT toInteger($limit)
RETURN e.name AS name, e.type AS type, facts,
       COUNT { MATCH (e)<-[:SUBJECT|OBJECT]-(:Fact)-[:SUBJECT|OBJECT]->(other:Entity) WHERE other <> e
               RETURN DISTINCT other } AS neighbours,
       COUNT { (e)<-[:MENTIONS]-(:Passage) } AS mentions
ORDER BY facts DESC, name
