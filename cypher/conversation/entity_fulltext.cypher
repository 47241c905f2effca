// System-1: entities by BM25 over names and aliases (Lucene index entity_name_search, shared by all spaces):
// the top $fetch hits, those of this space, best first. `scanned`: hits the index gave (the caller
// widens $fetch while the space got fewer than $k and the index may hold more).
// The index is eventually consistent (cypher/schema/20_passage_text_search): the wait first makes every
// committed write visible to this read.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('entity_name_search', $query, {limit: $fetch}) YIELD node, score
WITH count(*) AS scanned, collect(CASE WHEN node.space = $space THEN [node, score] END) AS hits
CALL (hits) {
  UNWIND hits AS hit
  WITH hit[0] AS node, hit[1] AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN collect({id: node.id, name: node.name, score: score}) AS top
}
RETURN scanned, top AS hits
