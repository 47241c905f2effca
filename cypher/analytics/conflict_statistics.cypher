// Conflicts by type and status: how many, how many facts they involve, their mean confidence and
// when the last one was detected.
// :params {space: "demo"}
MATCH (c:Conflict {space: $space})
WITH c, COUNT { (c)-[:INVOLVES]->(:Fact) } AS facts
RETURN c.type AS type, c.status AS status, count(c) AS conflicts, sum(facts) AS facts,
       avg(c.confidence) AS mean_confidence, toString(max(c.detected_at)) AS last_detected
ORDER BY conflicts DESC, type, status
