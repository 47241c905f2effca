// Nearest stored entities for each query vector (entity resolution and bridging).
// Neo4j reports cosine as (1 + cos) / 2; we return cos itself.
UNWIND $rows AS row
CALL db.index.vector.queryNodes('entity_embedding', $fetch, row.vector) YIELD node, score
WITH row, node, 2 * score - 1 AS cosine
WHERE node.space = $space AND node.id <> row.id AND cosine >= $min_cosine
RETURN row.id AS id, node.id AS neighbor, node.type AS type, cosine
ORDER BY id, cosine DESC
