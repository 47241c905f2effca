// Where facts come from: state, lineage and adjudication of each fact, the schema it instantiates,
// its subject and object, up to $per_fact evidence passages (text cut to $chars) with their documents,
// and the conflicts it is part of with the verdict proposed or applied to it.
UNWIND $ids AS id
MATCH (f:Fact {space: $space, id: id})
RETURN f.id AS id, f.text AS text, f.head AS head, f.relation AS relation, f.tail AS tail, f.time AS time,
       f.state AS state, f.valid_from AS valid_from, f.valid_to AS valid_to, f.ordinal AS ordinal,
       NOT f:Unchecked AS checked, f.extractor AS extractor, f.model AS model,
       f.prompt_version AS prompt_version, f.ontology_version AS ontology_version,
       toString(f.created_at) AS created_at,
       COLLECT {
         MATCH (f)-[:INSTANCE_OF]->(s:Schema)
         RETURN {id: s.id, head_type: s.head_type, relation: s.relation, tail_type: s.tail_type, state: s.state,
                 frequency: s.frequency, declared: s.declared}
         ORDER BY s.id LIMIT 1
       } AS schemas,
       COLLECT {
         MATCH (f)-[r:SUBJECT|OBJECT]->(e:Entity)
         RETURN {role: toLower(type(r)), id: e.id, name: e.name, type: e.type} ORDER BY type(r) DESC
       } AS entities,
       COUNT { (f)-[:EVIDENCED_BY]->(:Passage) } AS evidence_count,
       COLLECT {
         MATCH (f)-[:EVIDENCED_BY]->(p:Passage)<-[:HAS_PASSAGE]-(d:Document)
         RETURN {passage_id: p.id, title: p.title, text: left(p.text, $chars), doc_id: d.id, doc_title: d.title,
                 source: d.source}
         ORDER BY p.id LIMIT $per_fact
       } AS evidence,
       COLLECT {
         MATCH (c:Conflict)-[i:INVOLVES]->(f)
         RETURN {id: c.id, type: c.type, status: c.status, proposed: i.proposed,
                 applied: coalesce(i.applied, false)}
         ORDER BY c.id
       } AS conflicts
