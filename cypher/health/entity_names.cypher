// Every entity's id and name: the name collisions are counted in Python, under the writer's own
// normalisation (memory.normalize.normalize_entity_name).
MATCH (e:Entity {space: $space})
RETURN e.id AS id, e.name AS name
ORDER BY id
