// Retraction, step 2: the active facts of the conflicts just closed are checked again (adjudication
// scans Unchecked facts), now without the retracted ones.
UNWIND $ids AS conflict_id
MATCH (:Conflict {space: $space, id: conflict_id})-[:INVOLVES]->(f:Fact)
WHERE f.state = $active
SET f:Unchecked
RETURN count(DISTINCT f) AS rechecked
