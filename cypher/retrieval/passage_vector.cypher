// Dense passage retrieval in one memory space: cosine top-k from the vector index.
// The index is shared by all spaces, so over-fetch ($fetch >= $k) and filter by space.
// Neo4j scores cosine as (1 + cos) / 2; we return cos.
CALL db.index.vector.queryNodes('passage_embedding', $fetch, $vector) YIELD node, score
WHERE node.space = $space
RETURN node.id AS id, node.title AS title, node.text AS text, 2 * score - 1 AS score
ORDER BY score DESC
LIMIT $k
