// Retraction, step 3, after memory/promotion.demote_below_bar (stable schemas under the bar, support
// counted with the facts a refine moved off them): no active fact stays under a marked candidate. An
// undone refine (step 2) brings a fact back active to a schema that may be candidate. $stamp: `changed`
// on what changes (retrieval copies).
MATCH (s:Retracting:Schema {space: $space})
WHERE s.state = $candidate
CALL (s) {
  OPTIONAL MATCH (s)<-[:INSTANCE_OF]-(f:Fact)
  WHERE f.state = $active
  SET f.state = $pending, f.changed = $stamp
  REMOVE f:Unchecked
  RETURN count(f) AS facts
}
RETURN 0 AS schemas, sum(facts) AS facts
