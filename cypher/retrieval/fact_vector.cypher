// Multi-layer retrieval, fact layer: top-k facts by cosine, with their subject and object.
CALL db.index.vector.queryNodes('fact_embedding', $fetch, $vector) YIELD node, score
WITH node AS f, 2 * score - 1 AS score
WHERE f.space = $space AND f.state IN $states
MATCH (f)-[:SUBJECT]->(h:Entity), (f)-[:OBJECT]->(t:Entity)
RETURN f.id AS id, f.text AS text, f.state AS state, score, h.id AS head_id, t.id AS tail_id
ORDER BY score DESC
LIMIT $k
