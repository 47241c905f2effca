// Candidate conflicts of newly active facts by meaning: other facts of the space whose embeddings
// are at least $similarity cosine-similar (Fact vector index; Neo4j scores cosine as (1 + cos) / 2).
// The index is shared by all spaces, so it is asked for $fetch hits per fact and filtered.
UNWIND $ids AS id
MATCH (f:Fact {space: $space, id: id})
WHERE f.embedding IS NOT NULL
CALL (f) {
  CALL db.index.vector.queryNodes('fact_embedding', $fetch, f.embedding) YIELD node, score
  WITH node AS g, 2 * score - 1 AS cosine
  WHERE g.space = $space AND g <> f AND g.state IN $states AND cosine >= $similarity
  RETURN g, cosine
  ORDER BY cosine DESC
  LIMIT $max_candidates
}
RETURN f.id AS fact, g.id AS candidate, 'similar' AS rule, cosine
