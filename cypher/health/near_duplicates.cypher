// Entities with an embedding, and how many of them have another entity of the space at cosine >=
// $min_cosine among their $fetch nearest in the `entity_embedding` index (shared by all spaces, hence
// the over-fetch). Neo4j reports cosine as (1 + cos) / 2; we compare cos itself.
MATCH (e:Entity {space: $space})
WHERE e.embedding IS NOT NULL
CALL (e) {
  CALL db.index.vector.queryNodes('entity_embedding', $fetch, e.embedding) YIELD node, score
  WITH node, 2 * score - 1 AS cosine
  WHERE node.space = $space AND node <> e AND cosine >= $min_cosine
  RETURN count(node) AS close
}
RETURN count(e) AS embedded, count(CASE WHEN close > 0 THEN 1 END) AS near
