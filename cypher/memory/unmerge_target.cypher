// Unmerging a name (memory/unmerge.py): its Alias with the merge it records and the entity it joined, or
// the entity whose own name (`key`) it is, with the unmerge it went through if any; whether an entity of
// the name's own id exists already. The Alias comes first (a merged name whose own entity exists too).
// :params {space: "demo", key: "obama", own_id: "..."}
CALL () {
  MATCH (a:Alias {space: $space, id: $key})-[:ALIAS_OF]->(e:Entity)
  RETURN 0 AS rank, e, a.merged_by AS merged_by, a.merge_evidence AS evidence, a.merged_with AS merged_with,
         a.unmerged_from AS unmerged_from  // an Alias unmerged before issue 32 moved it to the entity
  UNION
  MATCH (e:Entity {space: $space, key: $key})
  RETURN 1 AS rank, e, null AS merged_by, null AS evidence, null AS merged_with, e.unmerged_from AS unmerged_from
}
RETURN merged_by, evidence, merged_with, unmerged_from, e.id AS entity_id, e.name AS entity, e.type AS type,
       e.aliases AS aliases, EXISTS { (:Entity {space: $space, id: $own_id}) } AS taken
ORDER BY rank
