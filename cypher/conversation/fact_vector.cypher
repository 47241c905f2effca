// System-1: facts nearest to the query vector among those in $states that are valid at $as_of (null:
// valid now, i.e. not invalidated). The vector index holds every state, so $fetch over-fetches.
CYPHER 25
MATCH (node:Fact)
  SEARCH node IN (VECTOR INDEX fact_embedding_by_space FOR $vector WHERE node.space = $space LIMIT $fetch)
  SCORE AS similarity
WITH node, similarity
WHERE node.state IN $states
  AND (CASE WHEN $as_of IS NULL THEN node.invalid_at IS NULL
       ELSE (node.valid_at IS NULL OR node.valid_at <= $as_of)
            AND (node.invalid_at IS NULL OR node.invalid_at > $as_of) END)
RETURN node.id AS id, node.text AS text, 2 * similarity - 1 AS score
ORDER BY score DESC, id
LIMIT $k
