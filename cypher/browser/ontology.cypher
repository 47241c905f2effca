// Browser guide: the ontology the memory has learnt. Types linked by their stable Schemas, most
// frequent first (frequency = distinct passages supporting the schema's facts); the graph view draws
// Type <-HEAD_TYPE- Schema -TAIL_TYPE-> Type, the table lists one schema per row.
// :params {space: "demo", stable: "stable"}
MATCH (head:Type)<-[ht:HEAD_TYPE]-(s:Schema {space: $space, state: $stable})-[tt:TAIL_TYPE]->(tail:Type)
RETURN head.name AS head_type, s.relation AS relation, tail.name AS tail_type, s.frequency AS frequency,
       COUNT { (s)<-[:INSTANCE_OF]-(:Fact) } AS facts,
       head, ht, s AS schema, tt, tail
ORDER BY frequency DESC, relation, head_type, tail_type
LIMIT 100
