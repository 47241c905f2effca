// System-2's episodes: the passages that mention entities $ids or evidence their facts (usable states,
// valid at $as_of; null: now), ranked by cosine similarity to the question vector.
UNWIND $ids AS id
MATCH (e:Entity {space: $space, id: id})
CALL (e) {
  MATCH (e)<-[:MENTIONS]-(p:Passage)
  RETURN p
  UNION
  MATCH (e)<-[:SUBJECT|OBJECT]-(f:Fact)-[:EVIDENCED_BY]->(p:Passage)
  WHERE f.state IN $states
    AND (CASE WHEN $as_of IS NULL THEN f.invalid_at IS NULL
         ELSE (f.valid_at IS NULL OR f.valid_at <= $as_of) AND (f.invalid_at IS NULL OR f.invalid_at > $as_of) END)
  RETURN p
}
WITH DISTINCT p
WHERE p.embedding IS NOT NULL
RETURN p.id AS id, p.text AS text, vector.similarity.cosine(p.embedding, $vector) AS score
ORDER BY score DESC, id
LIMIT $k
