// Test fixture read: each episode of the space with its speaker entity (SPOKEN_BY) and the entity's type.
MATCH (p:Episode {space: $space})-[:SPOKEN_BY]->(e:Entity)
RETURN p.id AS id, p.speaker AS speaker, e.name AS entity, e.type AS type
ORDER BY p.time, p.index
