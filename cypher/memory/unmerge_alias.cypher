// Unmerging a name (memory/unmerge.py), after create_entities wrote the name's own entity: the name is
// that entity's own now (its id is the name's hash), so it is the entity's `key` (set by create_entities)
// and its Alias goes with the merge record; `unmerged_from` on the entity keeps where it was (later
// mentions of the name resolve exactly to its own entity). The entity it joined loses the name's surface
// forms. $stamp: `changed` on that entity (repository/batch.py).
MATCH (a:Alias {space: $space, id: $key})-[:ALIAS_OF]->(e:Entity {space: $space, id: $entity_id})
MATCH (n:Entity {space: $space, id: $own_id})
DETACH DELETE a
SET n.unmerged_from = e.id, n.unmerged_at = datetime()
WITH e, [s IN e.aliases WHERE NOT s IN $surfaces] AS kept
SET e.aliases = kept, e.aliases_text = reduce(s = '', x IN kept | s + ' | ' + x), e.changed = $stamp
RETURN count(*) AS moved
