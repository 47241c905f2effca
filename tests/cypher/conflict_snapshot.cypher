// Every conflict of a space with what a rebuild must give back: type, status, the verdict proposed and
// applied for each fact, the CONFLICTS_WITH pairs; and the documents whose passages evidence its facts.
MATCH (c:Conflict {space: $space})
RETURN c.id AS id, c.type AS type, c.status AS status,
       COLLECT {
         MATCH (c)-[i:INVOLVES]->(f:Fact)
         RETURN [f.id, f.state, i.proposed, coalesce(i.applied, false)] AS fact ORDER BY fact
       } AS facts,
       COLLECT {
         MATCH (a:Fact {space: $space})-[r:CONFLICTS_WITH {conflict: c.id}]->(b:Fact)  // ids are the same in every space
         RETURN [a.id, b.id, r.type] AS pair ORDER BY pair
       } AS pairs,
       COLLECT {
         MATCH (c)-[:INVOLVES]->(:Fact)-[:EVIDENCED_BY]->(:Passage)<-[:HAS_PASSAGE]-(d:Document)
         RETURN DISTINCT d.id AS doc ORDER BY doc
       } AS documents
ORDER BY id
