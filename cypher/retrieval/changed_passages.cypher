// Passages of one space stamped after version $since (all for $since = -1), with what the copies hold of
// each: vector and text (layers, BM25), title (titles, PPR names), provenance (counts) and the entities
// it mentions (seed statistics, PPR graph) (retrieval/changes.py).
MATCH (p:Passage)
WHERE p.space = $space AND p.changed > $since
WITH p LIMIT $limit
RETURN coalesce(p.created > $since, false) AS new, p.id AS id, p.title AS title, p.text AS text, p.changed AS changed,
       p.page IS NOT NULL OR p.heading IS NOT NULL OR p:Episode AS located,
       CASE WHEN $vectors THEN p.embedding END AS embedding,
       [(p)-[:MENTIONS]->(e:Entity) | e.id] AS mentions
