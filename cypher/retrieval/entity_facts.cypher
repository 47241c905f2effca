// Answer context: the facts in $states (active) of the top entities.
UNWIND $entity_ids AS id
MATCH (e:Entity {space: $space, id: id})<-[:SUBJECT|OBJECT]-(f:Fact)
WHERE f.state IN $states
RETURN DISTINCT f.id AS id, f.text AS text
LIMIT $limit
