// Memory guidance: canonical entities whose name or alias matches words of the chunk (BM25).
CALL db.index.fulltext.queryNodes('entity_names', $query, {limit: $fetch}) YIELD node, score
WHERE node.space = $space
RETURN node.name AS name, node.type AS type, node.aliases AS aliases, score
ORDER BY score DESC
LIMIT $limit
