// After the verdicts of these conflicts were applied or reverted (same transaction): the schemas of every
// fact they judged (now, and the one a refine moved it from or to) get their frequency recounted (distinct
// passages of their facts in a $supporting state, as promotion counts it: a discard takes its fact's
// passages away, a revert gives them back, a merge lends its evidence to the kept fact), and promotion's
// rule holds for them: a candidate at or above the bar ($threshold, else one above the frequency at
// $percentile of undeclared schemas, else 1) becomes stable and its pending facts active (Unchecked); an
// active fact under a candidate schema is pending. A schema whose count or state moved is stamped ($stamp).
// Stable is not demoted here: demotion counts the facts a verdict judged as support (memory/stable_below_bar).
UNWIND $ids AS conflict_id
MATCH (:Conflict {space: $space, id: conflict_id})-[i:INVOLVES]->(f:Fact)-[:INSTANCE_OF]->(now:Schema)
UNWIND [now.id, i.proposed_schema, i.previous_schema] AS schema_id
WITH DISTINCT schema_id WHERE schema_id IS NOT NULL
MATCH (s:Schema {space: $space, id: schema_id})
CALL (s) {
  OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
  WHERE f.state IN $supporting
  RETURN count(DISTINCT p) AS frequency
}
SET s.changed = CASE WHEN s.frequency = frequency THEN s.changed ELSE coalesce($stamp, s.changed) END,
    s.frequency = frequency
WITH collect(s) AS touched
CALL () {
  // the bar promotion uses (memory/promote_and_activate): schemas at frequency 0 support nothing
  OPTIONAL MATCH (u:Schema)
  WHERE $threshold IS NULL AND $percentile IS NOT NULL AND u.space = $space AND u.declared = false
    AND u.frequency > 0
  RETURN CASE WHEN $threshold IS NOT NULL THEN $threshold
              WHEN $percentile IS NULL THEN 1
              ELSE coalesce(percentileDisc(u.frequency, $percentile), 0) + 1 END AS min_frequency
}
UNWIND touched AS s
CALL (s, min_frequency) {
  WITH * WHERE s.state = $candidate AND s.frequency >= min_frequency AND ($open OR coalesce(s.declared, false))
  SET s.state = $stable, s.promoted_at = datetime(), s.changed = coalesce($stamp, s.changed)
  WITH s
  MATCH (s)<-[:INSTANCE_OF]-(f:Fact {state: $pending})
  SET f.state = $active, f.activated_at = datetime(), f:Unchecked, f.changed = coalesce($stamp, f.changed)
}
CALL (s) {
  WITH * WHERE s.state = $candidate
  MATCH (s)<-[:INSTANCE_OF]-(f:Fact {state: $active})
  SET f.state = $pending, f.changed = coalesce($stamp, f.changed)
  REMOVE f:Unchecked
}
RETURN count(s) AS schemas
