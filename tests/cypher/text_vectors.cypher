// Every fact, schema and passage of a space with its text and embedding (test_embed_once.py), in id order.
MATCH (n)
WHERE n.space = $space AND (n:Fact OR n:Schema OR n:Passage)
RETURN CASE WHEN n:Fact THEN 'Fact' WHEN n:Schema THEN 'Schema' ELSE 'Passage' END AS label, n.id AS id, coalesce(n.text, n.relation) AS text, n.embedding AS embedding
ORDER BY label, id
