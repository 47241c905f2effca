// Conflicts found by detection and classification, one per connected group of facts, idempotent (the
// id hashes the group's fact ids). Each classified pair is also a CONFLICTS_WITH edge between the
// two facts, so Browser shows the disagreement where it is.
UNWIND $rows AS row
MERGE (c:Conflict {space: $space, id: row.id})
ON CREATE SET c.detected_at = datetime(), c.type = row.type, c.status = row.status,
              c.confidence = row.confidence, c.reason = row.reason, c.model = row.model
WITH c, row
CALL (c, row) {
  UNWIND row.facts AS fact_id
  MATCH (f:Fact {space: $space, id: fact_id})
  MERGE (c)-[:INVOLVES]->(f)
}
CALL (c, row) {
  UNWIND row.pairs AS pair
  MATCH (a:Fact {space: $space, id: pair.a}), (b:Fact {space: $space, id: pair.b})
  MERGE (a)-[r:CONFLICTS_WITH {conflict: c.id}]->(b)
  SET r.type = pair.type, r.confidence = pair.confidence, r.reason = pair.reason, r.rule = pair.rule
}
RETURN count(c) AS conflicts
