// Multi-layer retrieval, schema layer: top-k schemas by cosine (stable only unless told otherwise).
CALL db.index.vector.queryNodes('schema_embedding', $fetch, $vector) YIELD node, score
WITH node AS s, 2 * score - 1 AS score
WHERE s.space = $space AND s.state IN $states
RETURN s.id AS id, s.head_type AS head_type, s.relation AS relation, s.tail_type AS tail_type, score
ORDER BY score DESC
LIMIT $k
