// SIMILAR bridges of a space as name pairs (each edge once) with their weight (isolation test).
MATCH (a:Entity {space: $space})-[r:SIMILAR]-(b:Entity {space: $space})
WHERE a.name < b.name OR (a.name = b.name AND a.id < b.id)
RETURN a.name AS a, b.name AS b, r.weight AS weight
ORDER BY a, b
