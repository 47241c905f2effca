// System-2's facts: the usable facts of entities $ids valid at $as_of (null: now), ranked by cosine
// similarity to the question vector.
UNWIND $ids AS id
MATCH (e:Entity {space: $space, id: id})<-[:SUBJECT|OBJECT]-(f:Fact)
WHERE f.state IN $states AND f.embedding IS NOT NULL
  AND (CASE WHEN $as_of IS NULL THEN f.invalid_at IS NULL
       ELSE (f.valid_at IS NULL OR f.valid_at <= $as_of) AND (f.invalid_at IS NULL OR f.invalid_at > $as_of) END)
WITH DISTINCT f
RETURN f.id AS id, f.text AS text, vector.similarity.cosine(f.embedding, $vector) AS score
ORDER BY score DESC, id
LIMIT $k
