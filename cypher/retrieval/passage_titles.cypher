// Every titled passage of the space, by id (the order memory_state_names gives passages of one title):
// the question's names are matched against these titles when the space's title keys are incomplete
// (read once per memory version; see memory_state_names).
MATCH (p:Passage {space: $space})
WHERE p.title IS NOT NULL
RETURN p.id AS id, p.title AS title
ORDER BY id
