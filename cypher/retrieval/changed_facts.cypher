// Facts of one space stamped after version $since (all of them for $since = -1), with what the layer
// copy and the PPR graph copy hold of each (retrieval/changes.py); vectors only when $vectors.
// `changed > $since` seeks the fact_changed index; at most $limit rows (more: read everything again).
MATCH (f:Fact)
WHERE f.space = $space AND f.changed > $since
WITH f LIMIT $limit
OPTIONAL MATCH (f)-[:SUBJECT]->(h:Entity)
OPTIONAL MATCH (f)-[:OBJECT]->(t:Entity)
// new: created after $since (cypher/memory/*: `created` = the version that created it): the space counts
RETURN coalesce(f.created > $since, false) AS new, f.id AS id, f.state AS state, f.relation AS relation,
       f.text AS text, f.changed AS changed,
       CASE WHEN $vectors THEN f.embedding END AS embedding, h.id AS head_id, t.id AS tail_id
