// Stable schemas under the promotion bar (open world): what memory/promotion.demote_below_bar demotes
// (demotion_conflicts and demote_below_bar take their ids: the support rule lives here only).
// A seek on the schema_promotion index (space, state, frequency), then the few below it counted with the
// facts a verdict moved off their support: a refine makes "born in China" more specific, it takes no
// evidence from born_in, and a discard or contradict judges a fact of a schema already stable (adjudication
// checks active facts only): a clean build promotes first, then judges, so a verdict demotes nothing. Counted
// without them, the demotion closed the verdict's own conflict (undoing it), the recheck applied it again:
// churn on every batch.
MATCH (s:Schema {space: $space, state: $stable})
WHERE $open AND s.frequency < $min_frequency
  AND COUNT {  // its support: passages of its supporting facts, of its judged facts, of facts a refine moved off it
    MATCH (s)<-[:INSTANCE_OF]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
    WHERE f.state IN $supporting OR EXISTS { (f)<-[:INVOLVES {applied: true}]-(:Conflict) } RETURN p
    UNION
    MATCH (:Conflict {space: $space})-[i:INVOLVES]->(:Fact)-[:EVIDENCED_BY]->(p:Passage)
    WHERE i.previous_schema = s.id AND i.applied RETURN p
  } < $min_frequency
RETURN s.id AS id
ORDER BY id
