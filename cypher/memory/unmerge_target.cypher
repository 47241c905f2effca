// Unmerging a name (memory/unmerge.py): its Alias with the merge it records (or the unmerge it went
// through), the entity it joined, and whether an entity of the name's own id exists already.
// :params {space: "demo", key: "obama", own_id: "..."}
MATCH (a:Alias {space: $space, id: $key})-[:ALIAS_OF]->(e:Entity)
RETURN a.merged_by AS merged_by, a.merge_evidence AS evidence, a.merged_with AS merged_with,
       a.unmerged_from AS unmerged_from, e.id AS entity_id, e.name AS entity, e.type AS type,
       e.aliases AS aliases, EXISTS { (:Entity {space: $space, id: $own_id}) } AS taken
