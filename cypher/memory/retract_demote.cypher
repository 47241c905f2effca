// Retraction, step 3: a marked stable schema whose support fell below the promotion bar goes back to
// candidate (the one case where stable is demoted), and its active facts back to pending. A marked
// candidate's active facts go to pending too: an undone refine (step 2) brings a fact back active to a
// schema that may have been demoted meanwhile. $stamp: `changed` on what changes (retrieval copies).
MATCH (s:Retracting:Schema {space: $space})
WHERE s.state = $candidate OR (s.state = $stable AND s.frequency < $min_frequency)
WITH s, s.state = $stable AS demoted
CALL (s, demoted) {
  WITH * WHERE demoted
  SET s.state = $candidate, s.demoted_at = datetime(), s.changed = $stamp
}
CALL (s) {
  OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)
  WHERE f.state = $active
  SET f.state = $pending, f.changed = $stamp
  REMOVE f:Unchecked
  RETURN count(f) AS facts
}
RETURN sum(CASE WHEN demoted THEN 1 ELSE 0 END) AS schemas, sum(facts) AS facts
