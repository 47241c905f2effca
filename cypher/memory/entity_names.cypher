// The canonical names of stored entities, by id: resolution merges a similar name only when both state
// the same values (memory/values.py), so it reads the names of the few candidates at the merge threshold.
UNWIND $ids AS id
MATCH (e:Entity {space: $space, id: id})
RETURN e.id AS id, e.name AS name
