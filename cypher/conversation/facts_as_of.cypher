// Facts valid at $as_of (valid_at <= $as_of < invalid_at, open ends allowed); with $as_of null, the
// facts valid now (no invalid_at). Optionally only those of entities $entity_ids, relation $relation.
MATCH (f:Fact {space: $space})-[:SUBJECT]->(h:Entity)
WHERE f.state IN $states
  AND ($relation IS NULL OR f.relation = $relation)
  AND ($entity_ids IS NULL OR h.id IN $entity_ids)
  AND (CASE WHEN $as_of IS NULL THEN f.invalid_at IS NULL
       ELSE (f.valid_at IS NULL OR f.valid_at <= $as_of) AND (f.invalid_at IS NULL OR f.invalid_at > $as_of) END)
MATCH (f)-[:OBJECT]->(t:Entity)
RETURN f.id AS id, f.text AS text, f.relation AS relation, h.name AS head, t.name AS tail,
       f.valid_at AS valid_at, f.invalid_at AS invalid_at
ORDER BY f.valid_at, f.id
LIMIT $limit
