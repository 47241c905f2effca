// Remove every Conflict of a space (and its CONFLICTS_WITH edges), for a benchmark that starts over;
// revert_conflicts first, so no fact keeps a verdict whose record is gone.
MATCH (c:Conflict {space: $space})
OPTIONAL MATCH (:Fact {space: $space})-[r:CONFLICTS_WITH {conflict: c.id}]->(:Fact)
DELETE r
DETACH DELETE c
RETURN count(DISTINCT c) AS deleted
