// Unmerging a name (memory/unmerge.py), after create_entities wrote the name's own entity: its Alias
// moves there, the merge record goes and `unmerged_from` keeps where it was (later mentions of the name
// resolve exactly to its own entity); the entity it joined loses the name's surface forms. $stamp:
// `changed` on that entity (repository/batch.py).
MATCH (a:Alias {space: $space, id: $key})-[old:ALIAS_OF]->(e:Entity {space: $space, id: $entity_id})
MATCH (n:Entity {space: $space, id: $own_id})
DELETE old
CREATE (a)-[:ALIAS_OF]->(n)
SET a.entity_id = n.id, a.unmerged_from = e.id, a.unmerged_at = datetime(),
    a.merged_by = null, a.merge_evidence = null, a.merged_with = null
WITH e, [s IN e.aliases WHERE NOT s IN $surfaces] AS kept
SET e.aliases = kept, e.aliases_text = reduce(s = '', x IN kept | s + ' | ' + x), e.changed = $stamp
RETURN count(*) AS moved
