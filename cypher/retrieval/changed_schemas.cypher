// Schemas of one space stamped after version $since, as the layer copy holds them (retrieval/changes.py).
MATCH (s:Schema)
WHERE s.space = $space AND s.changed > $since
WITH s LIMIT $limit
RETURN coalesce(s.created > $since, false) AS new, s.id AS id, s.state AS state, s.head_type AS head_type,
       s.relation AS relation, s.tail_type AS tail_type,
       s.changed AS changed, CASE WHEN $vectors THEN s.embedding END AS embedding
