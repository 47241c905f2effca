// System-1: entities of the space nearest to the query vector (filtered by space inside the index).
// Neo4j scores cosine as (1 + cos) / 2; we return cos. Ties go to the lower id.
CYPHER 25
MATCH (node:Entity)
  SEARCH node IN (VECTOR INDEX entity_embedding_by_space FOR $vector WHERE node.space = $space LIMIT $fetch)
  SCORE AS similarity
RETURN node.id AS id, node.name AS name, 2 * similarity - 1 AS score
ORDER BY score DESC, id
LIMIT $k
