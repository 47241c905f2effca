// Stable schemas under the promotion bar (open world): what memory/promotion.demote_below_bar demotes
// (demotion_conflicts and demote_below_bar take their ids: the support rule lives here only).
// A seek on the schema_promotion index (space, state, frequency), then the few below it counted with the
// facts a refine verdict moved off them: a refine makes "born in China" more specific, it takes no evidence
// from born_in (a clean build promotes born_in first, then refines), so it demotes nothing.
MATCH (s:Schema {space: $space, state: $stable})
WHERE $open AND s.frequency < $min_frequency
  AND COUNT {  // its support: passages of its facts, and of facts a refine verdict moved off it
    MATCH (s)<-[:INSTANCE_OF]-(:Fact)-[:EVIDENCED_BY]->(p:Passage) RETURN p
    UNION
    MATCH (:Conflict {space: $space})-[i:INVOLVES]->(:Fact)-[:EVIDENCED_BY]->(p:Passage)
    WHERE i.previous_schema = s.id AND i.applied RETURN p
  } < $min_frequency
RETURN s.id AS id
ORDER BY id
