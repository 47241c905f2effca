// Entities with an embedding, and how many of them have another entity of the space at cosine >=
// $min_cosine among their $fetch nearest in the `entity_embedding_by_space` index (searched within
// the space: the filter is inside the search). Neo4j reports cosine as (1 + cos) / 2; we compare cos.
CYPHER 25
MATCH (e:Entity {space: $space})
WHERE e.embedding IS NOT NULL
CALL (e) {
  MATCH (node:Entity)
    SEARCH node IN (VECTOR INDEX entity_embedding_by_space FOR e.embedding WHERE node.space = $space LIMIT $fetch)
    SCORE AS similarity
  WITH node, 2 * similarity - 1 AS cosine
  WHERE node <> e AND cosine >= $min_cosine
  RETURN count(node) AS close
}
RETURN count(e) AS embedded, count(CASE WHEN close > 0 THEN 1 END) AS near
