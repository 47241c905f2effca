// Retraction, step 2: the conflicts, not yet obsolete (a dismissed one too), that involve a marked fact left without any
// evidence passage (it is about to be retracted).
MATCH (c:Conflict {space: $space})-[:INVOLVES]->(f:Retracting:Fact {space: $space})
WHERE NOT c.status IN $closed AND NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
RETURN DISTINCT c.id AS id
ORDER BY id
