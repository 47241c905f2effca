// Demotion, step 1 (memory/promotion.demote_below_bar): the conflicts, not yet obsolete, that involve a
// fact of a stable schema now below the promotion bar (open world), or a fact a refine verdict moved off
// such a schema. A clean build never checked those facts (they stay pending there), so the conflicts
// close. Also the schemas whose support their verdicts' undoing moves (current and previous schemas of
// every fact involved), to recount. Nothing below the bar: no rows (the schema_promotion index seeks it).
MATCH (s:Schema {space: $space, state: $stable})
WHERE $open AND s.frequency < $min_frequency
  AND COUNT {  // its support: passages of its facts, and of facts a refine verdict moved off it
    MATCH (s)<-[:INSTANCE_OF]-(:Fact)-[:EVIDENCED_BY]->(p:Passage) RETURN p
    UNION
    MATCH (:Conflict {space: $space})-[i:INVOLVES]->(:Fact)-[:EVIDENCED_BY]->(p:Passage)
    WHERE i.previous_schema = s.id AND i.applied RETURN p
  } < $min_frequency
CALL (s) {
  MATCH (s)<-[:INSTANCE_OF]-(:Fact)<-[:INVOLVES]-(c:Conflict)
  RETURN c
  UNION
  MATCH (c:Conflict {space: $space})-[i:INVOLVES]->(:Fact)
  WHERE i.previous_schema = s.id
  RETURN c
}
WITH DISTINCT c
WHERE c.status <> $obsolete
MATCH (c)-[i:INVOLVES]->(f:Fact)-[:INSTANCE_OF]->(now:Schema)
WITH c, collect(now.id) + [x IN collect(i.previous_schema) WHERE x IS NOT NULL] AS schemas
RETURN c.id AS id, schemas
ORDER BY id
