MATCH (e:Entity {space: $space})-[:HAS_TYPE]->(:Type {id: $type})
RETURN e.name AS name, e.aliases AS aliases, COUNT { (e)<-[:SUBJECT|OBJECT]-(:Fact) } AS facts
ORDER BY name
