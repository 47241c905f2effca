// The summed Lucene BM25 score of the space's passages for a query: the total memgraphrag's fusion
// divides by (retrieval/fusion.py) when BM25 runs through the shared index instead of in process.
// Bounded by $limit hits of all spaces (the tail past them is the smallest).
CALL db.index.fulltext.queryNodes('passage_text', $query, {limit: $limit}) YIELD node, score
WHERE node.space = $space
RETURN sum(score) AS total
