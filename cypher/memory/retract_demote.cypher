// Retraction, step 3: a marked stable schema whose support fell below the promotion bar goes back to
// candidate (the one case where stable is demoted), and its active facts back to pending.
MATCH (s:Retracting:Schema {space: $space, state: $stable})
WHERE s.frequency < $min_frequency
SET s.state = $candidate, s.demoted_at = datetime()
WITH s
CALL (s) {
  OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)
  WHERE f.state = $active
  SET f.state = $pending
  REMOVE f:Unchecked
  RETURN count(f) AS facts
}
RETURN count(s) AS schemas, sum(facts) AS facts
