// Memory guidance: canonical entities whose name or alias matches words of the chunk (BM25).
// The index is eventually consistent (cypher/schema/20_passage_text_search): the wait first makes every
// committed write visible to this read.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('entity_name_search', $query, {limit: $fetch}) YIELD node, score
WHERE node.space = $space
RETURN node.name AS name, node.type AS type, node.aliases AS aliases, score
ORDER BY score DESC
LIMIT $limit
