// Entities of one space stamped after version $since (all for $since = -1): name, types with their
// current degree (seed statistics), and SIMILAR bridges out of each (each bridge is stored in one
// direction; the PPR graph copy holds it under its source) (retrieval/changes.py).
MATCH (e:Entity)
WHERE e.space = $space AND e.changed > $since
WITH e LIMIT $limit
RETURN e.id AS id, e.name AS name, e.changed AS changed,
       [(e)-[:HAS_TYPE]->(t:Type) | [t.id, COUNT { (t)<-[:HAS_TYPE]-() }]] AS types,
       [(e)-[r:SIMILAR]->(b:Entity) | [b.id, r.weight]] AS similar
