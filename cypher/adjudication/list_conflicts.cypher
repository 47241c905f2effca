// The conflicts of a space, newest first, optionally of one status, with the facts they involve: their
// texts and, in the same order, their ids.
MATCH (c:Conflict {space: $space})
WHERE $status IS NULL OR c.status = $status
WITH c ORDER BY c.detected_at DESC, c.id LIMIT $limit
RETURN c.id AS id, c.type AS type, c.status AS status, c.confidence AS confidence,
       toString(c.detected_at) AS detected_at,
       COLLECT { MATCH (c)-[:INVOLVES]->(f:Fact) RETURN f.text ORDER BY f.text, f.id } AS facts,
       COLLECT { MATCH (c)-[:INVOLVES]->(f:Fact) RETURN f.id ORDER BY f.text, f.id } AS fact_ids
