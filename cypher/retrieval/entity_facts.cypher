// Answer context: active facts of the top entities.
UNWIND $entity_ids AS id
MATCH (e:Entity {space: $space, id: id})<-[:SUBJECT|OBJECT]-(f:Fact {state: 'active'})
RETURN DISTINCT f.id AS id, f.text AS text
LIMIT $limit
