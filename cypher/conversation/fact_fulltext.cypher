// System-1: facts by BM25 over their text (Lucene index fact_text_search_search, shared by all spaces), in $states
// and valid at $as_of (null: valid now). `scanned`: hits the index gave, for the caller's widening.
// The index is eventually consistent (cypher/schema/20_passage_text_search): the wait first makes every
// committed write visible to this read.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('fact_text_search', $query, {limit: $fetch}) YIELD node, score
WITH count(*) AS scanned,
     collect(CASE WHEN node.space = $space AND node.state IN $states
                   AND (CASE WHEN $as_of IS NULL THEN node.invalid_at IS NULL
                        ELSE (node.valid_at IS NULL OR node.valid_at <= $as_of)
                             AND (node.invalid_at IS NULL OR node.invalid_at > $as_of) END)
             THEN [node, score] END) AS hits
CALL (hits) {
  UNWIND hits AS hit
  WITH hit[0] AS node, hit[1] AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN collect({id: node.id, text: node.text, score: score}) AS top
}
RETURN scanned, top AS hits
