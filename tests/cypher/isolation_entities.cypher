// Entities of a space with their names, type and aliases (isolation test: two builds compared).
MATCH (e:Entity {space: $space})
RETURN e.id AS id, e.name AS name, e.type AS type, e.aliases AS aliases
ORDER BY id
