// Retraction, step 5, $batch at a time: the recount is done, the marks go.
MATCH (n:Retracting {space: $space})
WITH n LIMIT $batch
REMOVE n:Retracting
RETURN count(n) AS unmarked
