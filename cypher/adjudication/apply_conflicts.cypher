// Apply the proposed verdicts of these conflicts, all in this one transaction. Each fact's state,
// relation, text, qualifiers and schema are kept on INVOLVES first, so revert_conflicts restores
// them exactly; evidence moved by a merge is marked with the conflict's id. Facts are never deleted.
// A refine moves the fact to another schema: adjudication/verdict_schemas recounts both after this.
// $stamp (the version repository/conflicts.py bumped first): `changed` on every fact and schema it
// changes, so retrieval copies catch up by reading those (repository/changes.py).
UNWIND $ids AS conflict_id
MATCH (c:Conflict {space: $space, id: conflict_id})-[i:INVOLVES]->(f:Fact)
WHERE i.proposed IS NOT NULL AND NOT coalesce(i.applied, false)
SET i.previous_state = f.state, i.previous_relation = f.relation, i.previous_text = f.text,
    i.previous_valid_from = f.valid_from, i.previous_valid_to = f.valid_to, i.previous_ordinal = f.ordinal,
    i.applied = true, f.changed = coalesce($stamp, f.changed)
WITH c, i, f
CALL (i, f) {
  WITH * WHERE i.proposed = $discard
  SET f.state = $discarded
}
CALL (c, i, f) {
  WITH * WHERE i.proposed = $merge
  SET f.state = $superseded
  WITH *
  MATCH (k:Fact {space: $space, id: i.proposed_into}), (f)-[:EVIDENCED_BY]->(p:Passage)
  WHERE NOT (k)-[:EVIDENCED_BY]->(p)
  CREATE (k)-[:EVIDENCED_BY {conflict: c.id}]->(p)
}
CALL (i, f) {
  WITH * WHERE i.proposed = $qualify
  SET f.valid_from = i.proposed_valid_from, f.valid_to = i.proposed_valid_to, f.ordinal = i.proposed_ordinal
}
CALL (i, f) {
  WITH * WHERE i.proposed = $refine
  MATCH (f)-[old:INSTANCE_OF]->(s:Schema)-[:HEAD_TYPE]->(ht:Type), (s)-[:TAIL_TYPE]->(tt:Type)
  SET i.previous_schema = s.id, f.relation = i.proposed_relation, f.text = i.proposed_text
  // open: a new schema, candidate until promotion counts its support (verdict_schemas, next);
  // strict: a variant of a declared schema, stable by declaration like it
  MERGE (refined:Schema {space: $space, id: i.proposed_schema})
  ON CREATE SET refined.head_type = s.head_type, refined.relation = i.proposed_relation,
                refined.tail_type = s.tail_type, refined.state = CASE WHEN $open THEN $candidate ELSE s.state END,
                refined.declared = NOT $open AND coalesce(s.declared, false),
                refined.frequency = 0, refined.created_at = datetime(), refined.created = $stamp
  SET refined.changed = coalesce($stamp, refined.changed)
  MERGE (refined)-[:HEAD_TYPE]->(ht)
  MERGE (refined)-[:TAIL_TYPE]->(tt)
  DELETE old
  MERGE (f)-[:INSTANCE_OF]->(refined)
}
WITH DISTINCT c
SET c.status = $resolved, c.resolved_at = datetime()
RETURN count(c) AS applied
