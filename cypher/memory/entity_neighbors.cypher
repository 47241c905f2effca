// Nearest stored entities of the space for each query vector (entity resolution and bridging): the
// $fetch nearest, filtered by space inside the vector search, then those at cosine >= $min_cosine.
// Ties go to the lower id. Neo4j reports cosine as (1 + cos) / 2; we return cos itself.
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (node:Entity)
    SEARCH node IN (VECTOR INDEX entity_embedding_by_space FOR row.vector WHERE node.space = $space LIMIT $fetch)
    SCORE AS similarity
  RETURN node, 2 * similarity - 1 AS cosine
}
WITH row, node, cosine
WHERE node.id <> row.id AND cosine >= $min_cosine
RETURN row.id AS id, node.id AS neighbor, node.type AS type, cosine
ORDER BY id, cosine DESC, neighbor
