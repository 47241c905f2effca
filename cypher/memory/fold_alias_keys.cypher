// Migration to the entity's own name key (memory/alias_keys.py): each Alias that is its one entity's own
// name becomes the entity's `key` and goes with its ALIAS_OF; the unmerge an Alias recorded goes to the
// entity (as cypher/memory/unmerge_alias writes it now). Checked again here, so a page read before a
// concurrent change folds nothing it should not; a folded Alias is gone, so a second run folds nothing.
UNWIND $rows AS row
MATCH (a:Alias {space: $space, id: row.key})-[:ALIAS_OF]->(e:Entity {space: $space, id: row.entity_id})
WHERE a.merged_by IS NULL AND coalesce(e.key, row.key) = row.key AND COUNT { (a)-[:ALIAS_OF]->() } = 1
SET e.key = row.key, e.unmerged_from = coalesce(a.unmerged_from, e.unmerged_from),
    e.unmerged_at = coalesce(a.unmerged_at, e.unmerged_at)
DETACH DELETE a
RETURN count(*) AS folded
