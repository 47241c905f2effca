// Candidate conflicts of newly active facts by meaning: other facts of the space whose embeddings
// are at least $similarity cosine-similar. The Fact vector index is searched within the space (the
// filter is inside the search) for $fetch hits per fact; states are filtered after.
// Neo4j scores cosine as (1 + cos) / 2.
CYPHER 25
UNWIND $ids AS id
MATCH (f:Fact {space: $space, id: id})
WHERE f.embedding IS NOT NULL
CALL (f) {
  MATCH (g:Fact)
    SEARCH g IN (VECTOR INDEX fact_embedding_by_space FOR f.embedding WHERE g.space = $space LIMIT $fetch)
    SCORE AS similarity
  WITH g, 2 * similarity - 1 AS cosine
  WHERE g <> f AND g.state IN $states AND cosine >= $similarity
  RETURN g, cosine
  ORDER BY cosine DESC, g.id
  LIMIT $max_candidates
}
RETURN f.id AS fact, g.id AS candidate, 'similar' AS rule, cosine
