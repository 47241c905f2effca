// BM25 passage retrieval in one memory space through the Lucene fulltext index.
CALL db.index.fulltext.queryNodes('passage_text', $query, {limit: $fetch}) YIELD node, score
WHERE node.space = $space
RETURN node.id AS id, node.title AS title, node.text AS text, score
ORDER BY score DESC
LIMIT $k
