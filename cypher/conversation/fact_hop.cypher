// One hop of System-1 expansion: from entities $ids along facts in $states that are valid at $as_of
// (null: valid now) to the entities on their other end. Per fact: its id, the entity reached and the
// entity it came from.
UNWIND $ids AS id
MATCH (e:Entity {space: $space, id: id})<-[:SUBJECT|OBJECT]-(f:Fact)-[:SUBJECT|OBJECT]->(n:Entity)
WHERE n <> e AND f.state IN $states
  AND (CASE WHEN $as_of IS NULL THEN f.invalid_at IS NULL
       ELSE (f.valid_at IS NULL OR f.valid_at <= $as_of) AND (f.invalid_at IS NULL OR f.invalid_at > $as_of) END)
RETURN id AS source, f.id AS fact, n.id AS target
ORDER BY source, fact, target
