// Retraction, step 2: mark the schemas of every fact of these conflicts for the recount; run before
// and after their verdicts are undone, because undoing a refine moves a fact back to its old schema
// and undoing a merge takes the evidence it lent away.
UNWIND $ids AS conflict_id
MATCH (:Conflict {space: $space, id: conflict_id})-[:INVOLVES]->(f:Fact)-[:INSTANCE_OF]->(s:Schema)
SET s:Retracting
RETURN count(DISTINCT s) AS schemas
