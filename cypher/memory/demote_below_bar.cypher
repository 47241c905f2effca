// Demotion, last step: these stable schemas under the promotion bar (stable_below_bar) go back to
// candidate, and their active facts to pending (out of the conflict check's queue), as a clean build of the same
// documents leaves them. The bar moves with the space (the percentile rule's cutoff, a retraction's
// lost support): stable follows it, so the memory is a function of its documents, not of the order
// they came in. Run after demotion_conflicts' conflicts are closed.
UNWIND $ids AS id
MATCH (s:Schema {space: $space, id: id})
WHERE s.state = $stable
SET s.state = $candidate, s.demoted_at = datetime(), s.changed = $stamp
WITH s
CALL (s) {
  OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)
  WHERE f.state = $active
  SET f.state = $pending, f.changed = $stamp
  REMOVE f:Unchecked
  RETURN count(f) AS facts
}
RETURN count(s) AS schemas, sum(facts) AS facts
