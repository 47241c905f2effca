// Every titled passage of the space: the question's names are matched against these titles
// (read once per memory version).
MATCH (p:Passage {space: $space})
WHERE p.title IS NOT NULL
RETURN p.id AS id, p.title AS title
