// passage_fulltext's first read and the summed Lucene BM25 score of the space's passages for the same
// query in one round trip: memgraphrag's fusion through the shared index divides by that total
// (retrieval/fusion.py); two reads cost a one-shot `query` a round trip. The total is bounded by $limit
// hits of all spaces (the tail past them is the smallest). Ties go to the lower id.
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
CALL () {
  CALL db.index.fulltext.queryNodes('passage_text_search', $query, {limit: $limit}) YIELD node, score
  WHERE node.space = $space
  RETURN sum(score) AS total
}
RETURN scanned, top AS hits, total
