// Dense passage retrieval in one memory space: cosine top-k from the vector index, filtered by space
// inside the search (the index is shared by all spaces). $fetch >= $k hits are asked for because the
// HNSW search is approximate and searches wider for a larger limit; ties go to the lower id.
// Neo4j scores cosine as (1 + cos) / 2; we return cos.
CYPHER 25
MATCH (node:Passage)
  SEARCH node IN (VECTOR INDEX passage_embedding_by_space FOR $vector WHERE node.space = $space LIMIT $fetch)
  SCORE AS similarity
RETURN node.id AS id, node.title AS title, node.text AS text, 2 * similarity - 1 AS score
ORDER BY score DESC, id
LIMIT $k
