// Demotion, last step: stable schemas below the promotion bar (open world) go back to candidate, and
// their active facts to pending (out of the conflict check's queue), as a clean build of the same
// documents leaves them. The bar moves with the space (the percentile rule's cutoff, a retraction's
// lost support): stable follows it, so the memory is a function of its documents, not of the order
// they came in. Run after demotion_conflicts' conflicts are closed.
MATCH (s:Schema {space: $space, state: $stable})
WHERE $open AND s.frequency < $min_frequency
  AND COUNT {  // its support: passages of its facts, and of facts a refine verdict moved off it
    MATCH (s)<-[:INSTANCE_OF]-(:Fact)-[:EVIDENCED_BY]->(p:Passage) RETURN p
    UNION
    MATCH (:Conflict {space: $space})-[i:INVOLVES]->(:Fact)-[:EVIDENCED_BY]->(p:Passage)
    WHERE i.previous_schema = s.id AND i.applied RETURN p
  } < $min_frequency
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
