// Relationships per type that start in one memory space.
MATCH (n {space: $space})-[r]->()
RETURN type(r) AS type, count(r) AS count
ORDER BY type
