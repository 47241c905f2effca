// Every fact of a space with its state, qualifiers, schema relation and evidence passage titles.
MATCH (f:Fact {space: $space})
RETURN f.id AS id, f.text AS text, f.state AS state, f.relation AS relation, f.valid_from AS valid_from,
       f.valid_to AS valid_to, f.ordinal AS ordinal,
       head(COLLECT { MATCH (f)-[:INSTANCE_OF]->(s:Schema) RETURN s.relation }) AS schema_relation,
       COLLECT { MATCH (f)-[:EVIDENCED_BY]->(p:Passage) RETURN p.title ORDER BY p.title } AS evidence
