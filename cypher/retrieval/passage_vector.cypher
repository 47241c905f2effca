// Dense passage retrieval in one memory space: cosine top-k from the vector index.
// The index is shared by all spaces, so over-fetch ($fetch >= $k) and filter by space.
CALL db.index.vector.queryNodes('passage_embedding', $fetch, $vector) YIELD node, score
WHERE node.space = $space
RETURN node.id AS id, node.title AS title, score
ORDER BY score DESC
LIMIT $k
