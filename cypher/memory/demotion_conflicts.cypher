// Demotion, step 1 (memory/promotion.demote_below_bar): the conflicts, not yet obsolete, that involve a
// fact of these stable schemas under the promotion bar (stable_below_bar), or a fact a refine verdict
// moved off one. A clean build never checked those facts (they stay pending there), so the conflicts
// close. Also the schemas whose support their verdicts' undoing moves (current and previous schemas of
// every fact involved), to recount.
UNWIND $ids AS id
MATCH (s:Schema {space: $space, id: id})
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
