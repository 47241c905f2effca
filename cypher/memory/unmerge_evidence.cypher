// Unmerging a name (memory/unmerge.py): in the passages that used it, the facts they state naming an end
// by it (their EVIDENCED_BY records the merged names: cypher/memory/write_evidence_keys), with what the
// fact is made again from, as that passage states it with the name's own entity.
UNWIND $passage_ids AS passage_id
MATCH (p:Passage {space: $space, id: passage_id})<-[r:EVIDENCED_BY]-(f:Fact)
WHERE r.head_key = $key OR r.tail_key = $key
MATCH (f)-[:INSTANCE_OF]->(s:Schema), (f)-[:SUBJECT]->(h:Entity), (f)-[:OBJECT]->(t:Entity)
RETURN p.id AS passage_id, r.head_key AS head_key, r.tail_key AS tail_key, coalesce(r.direct, false) AS direct,
       f.id AS id, f.relation AS relation, f.relation_raw AS relation_raw, f.time AS time, f.head AS head,
       f.tail AS tail, h.id AS head_id, t.id AS tail_id, s.head_type AS head_type, s.tail_type AS tail_type,
       f.extractor AS extractor, f.model AS model, f.prompt_version AS prompt_version,
       f.ontology_version AS ontology_version
ORDER BY passage_id, id
