// Conflicts found by detection and classification, one per connected group of facts, idempotent (the
// id hashes the group's fact ids). Each classified pair is also a CONFLICTS_WITH edge between the
// two facts, from the lower fact id (the same edge whichever fact came first), so Browser shows the
// disagreement where it is. A conflict detected again after a
// retraction closed it (obsolete) is detected afresh: type, status, confidence and reason as now found,
// the old proposals and pairs gone (propose_verdicts and apply_conflicts follow in the same transaction),
// so retract + re-ingest gives what a clean build gives. The adjudicator leaves out conflicts a person
// reviewed (adjudication/restore_reviewed), so the guard on c.review only protects them.
UNWIND $rows AS row
MERGE (c:Conflict {space: $space, id: row.id})
WITH c, row, c.status IS NULL OR (c.status = $obsolete AND c.review IS NULL) AS detected
WHERE c.review IS NULL
CALL (c, detected) {
  WITH * WHERE detected
  OPTIONAL MATCH (c)-[i:INVOLVES]->(:Fact)
  REMOVE i.proposed, i.proposed_into, i.proposed_relation, i.proposed_text, i.proposed_schema,
         i.proposed_valid_from, i.proposed_valid_to, i.proposed_ordinal
  WITH DISTINCT c
  OPTIONAL MATCH (:Fact {space: $space})-[old:CONFLICTS_WITH {conflict: c.id}]->(:Fact)
  DELETE old
  WITH DISTINCT c
  REMOVE c.rationale, c.resolved_at, c.reverted_at
  SET c.detected_at = datetime()
}
CALL (c, row, detected) {
  WITH * WHERE detected
  SET c.type = row.type, c.status = row.status, c.confidence = row.confidence, c.reason = row.reason,
      c.model = row.model
}
CALL (c, row) {
  UNWIND row.facts AS fact_id
  MATCH (f:Fact {space: $space, id: fact_id})
  MERGE (c)-[:INVOLVES]->(f)
}
CALL (c, row) {
  UNWIND row.pairs AS pair
  MATCH (a:Fact {space: $space, id: pair.a}), (b:Fact {space: $space, id: pair.b})
  OPTIONAL MATCH (b)-[reversed:CONFLICTS_WITH {conflict: c.id}]->(a)  // written before pairs ran from the lower id
  DELETE reversed
  WITH DISTINCT c, a, b, pair
  MERGE (a)-[:CONFLICTS_WITH {conflict: c.id}]->(b)
  WITH c, a, b, pair
  MATCH (a)-[same:CONFLICTS_WITH {conflict: c.id}]->(b)  // one edge per pair: duplicates collapse
  WITH pair, collect(DISTINCT same) AS edges
  FOREACH (extra IN tail(edges) | DELETE extra)
  WITH pair, head(edges) AS r
  SET r.type = pair.type, r.confidence = pair.confidence, r.reason = pair.reason, r.rule = pair.rule
}
RETURN count(c) AS conflicts
