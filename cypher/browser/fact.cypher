// Browser guide: one fact and where it comes from. Its subject and object entities, the schema it
// instantiates and every evidence passage with its document. $fact_id: the whole id or its first
// characters (search results and `conflicts show` print them).
// :params {space: "demo", fact_id: "3f2a9c"}
MATCH (f:Fact {space: $space})
WHERE f.id STARTS WITH $fact_id
MATCH subject = (f)-[:SUBJECT]->(h:Entity)
MATCH object = (f)-[:OBJECT]->(t:Entity)
OPTIONAL MATCH schema = (f)-[:INSTANCE_OF]->(s:Schema)
OPTIONAL MATCH evidence = (f)-[:EVIDENCED_BY]->(p:Passage)<-[:HAS_PASSAGE]-(d:Document)
WITH f, h, t, s, subject, object, schema, evidence, p, d
ORDER BY d.title, p.index
RETURN f.id AS id, f.text AS fact, f.state AS state, h.name AS subject_name, t.name AS object_name,
       s.relation AS schema_relation, s.state AS schema_state, s.frequency AS schema_frequency,
       collect(p {.id, .title, .index, .text}) AS passages,
       f, subject, object, schema, collect(evidence) AS evidence
