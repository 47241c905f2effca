// BM25 passage retrieval through the Lucene fulltext index, for spaces too large to rank in process
// (retrieval/bm25_index.py ranks the others exactly). The index is shared by all spaces: its IDF
// counts every space's passages, and other spaces' hits can fill its top $fetch, so the hits are
// filtered by space and `scanned` says how many the index gave: the caller asks again with a larger
// $fetch while fewer than $k are of this space and the index may hold more. Ties go to the lower id.
// The index is eventually consistent (cypher/schema/20_passage_text_search): the wait first makes every
// committed write visible to this read.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('passage_text_search', $query, {limit: $fetch}) YIELD node, score
WITH count(*) AS scanned, collect(CASE WHEN node.space = $space THEN [node, score] END) AS hits
CALL (hits) {
  UNWIND hits AS hit
  WITH hit[0] AS node, hit[1] AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN collect({id: node.id, title: node.title, text: node.text, score: score}) AS top
}
RETURN scanned, top AS hits
