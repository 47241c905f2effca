// Undo the applied verdicts of these conflicts: every fact gets back exactly the state, relation,
// text, qualifiers and schema it had, evidence a merge added is removed, and the conflict goes to
// $status (needs_review after a revert, dismissed after a rejection). $stamp: `changed` on the facts
// (repository/conflicts.py bumps the version first; null inside a retraction, which bumps unstamped).
UNWIND $ids AS conflict_id
MATCH (c:Conflict {space: $space, id: conflict_id})-[i:INVOLVES]->(f:Fact)
CALL (c, f) {
  MATCH (f)-[e:EVIDENCED_BY]->(:Passage)
  WHERE e.conflict = c.id
  DELETE e
}
CALL (i, f) {
  WITH * WHERE coalesce(i.applied, false) AND i.previous_schema IS NOT NULL
  MATCH (f)-[now:INSTANCE_OF]->(:Schema), (previous:Schema {space: $space, id: i.previous_schema})
  DELETE now
  MERGE (f)-[:INSTANCE_OF]->(previous)
}
CALL (i, f) {
  WITH * WHERE coalesce(i.applied, false)
  SET f.state = i.previous_state, f.relation = i.previous_relation, f.text = i.previous_text,
      f.valid_from = i.previous_valid_from, f.valid_to = i.previous_valid_to, f.ordinal = i.previous_ordinal,
      i.applied = false, f.changed = coalesce($stamp, f.changed)
  REMOVE i.previous_state, i.previous_relation, i.previous_text, i.previous_valid_from, i.previous_valid_to,
         i.previous_ordinal, i.previous_schema
}
WITH DISTINCT c
SET c.status = $status, c.reverted_at = datetime()
RETURN count(c) AS reverted
