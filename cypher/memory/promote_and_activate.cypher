// Algorithm 1, stage II, in one transaction (a kill cannot leave a schema promoted with its facts
// still pending): the bar is $threshold, else (percentile rule) one above the frequency at $percentile
// of the undeclared schemas with support (at frequency 0 only retracted facts are left), else 1;
// candidates at or above it become stable (a stable one below it is demoted after: `below`);
// then the facts written since the last promotion (Unpromoted) whose schema is stable, and every
// pending fact of a schema promoted now, become active and Unchecked (adjudication scans those); then
// the Unpromoted marks go. The schema_promotion index makes the candidate MATCH a seek; the bar's
// frequencies come from the schema_support index alone (without an index the planner scanned every
// space's schemas, 27k nodes for MuSiQue's 9k, 80 ms; reading `declared` from each schema, 10.0 ms a
// write; from the index, 3.6 ms).
CALL () {
  OPTIONAL MATCH (u:Schema)
  WHERE $threshold IS NULL AND $percentile IS NOT NULL AND u.space = $space AND u.declared = false
    AND u.frequency > 0
  RETURN CASE WHEN $threshold IS NOT NULL THEN $threshold
              WHEN $percentile IS NULL THEN 1
              ELSE coalesce(percentileDisc(u.frequency, $percentile), 0) + 1 END AS min_frequency
}
// Rows stay one node wide: a list of the promoted schemas carried beside every fact (collect, then
// UNION) was copied into each row's Distinct key: 1,228 schemas x 42,601 facts in one batch at 54k
// passages took the transaction past its 1.4 GiB limit, and every retry of that batch failed.
CALL (min_frequency) {
  MATCH (s:Schema {space: $space, state: $candidate})
  WHERE s.frequency >= min_frequency AND ($open OR coalesce(s.declared, false))
  SET s.state = $stable, s.promoted_at = datetime(), s.changed = coalesce($stamp, s.changed)
  WITH s
  CALL (s) {
    MATCH (s)<-[:INSTANCE_OF]-(f:Fact)
    WHERE f.state = $pending
    SET f.state = $active, f.activated_at = datetime(), f:Unchecked, f.changed = coalesce($stamp, f.changed)
    RETURN count(f) AS facts
  }
  RETURN count(s) AS promoted, coalesce(sum(facts), 0) AS of_promoted
}
CALL () {
  MATCH (f:Unpromoted:Fact {space: $space})-[:INSTANCE_OF]->(:Schema {state: $stable})
  WHERE f.state = $pending
  SET f.state = $active, f.activated_at = datetime(), f:Unchecked, f.changed = coalesce($stamp, f.changed)
  RETURN count(f) AS of_stable
}
CALL () {
  MATCH (f:Unpromoted:Fact {space: $space})
  REMOVE f:Unpromoted
}
// below: stable schemas now under the bar (the percentile's cutoff rose): the writer demotes them next
// (memory/promotion.demote_below_bar), so that no order of ingests keeps what a clean build would not
RETURN promoted, of_promoted + of_stable AS activated, min_frequency,
       COUNT { MATCH (b:Schema {space: $space, state: $stable}) WHERE $open AND b.frequency < min_frequency } AS below
