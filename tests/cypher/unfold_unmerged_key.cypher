// test_alias_keys: an unmerge as written before issue 32: the name's own entity had no key, its Alias
// (moved there) said `unmerged_from`.
MATCH (e:Entity {space: $space})
WHERE e.unmerged_from IS NOT NULL
CREATE (:Alias {space: $space, id: e.key, entity_id: e.id, unmerged_from: e.unmerged_from,
                unmerged_at: e.unmerged_at})-[:ALIAS_OF]->(e)
REMOVE e.key, e.unmerged_from, e.unmerged_at
RETURN count(e) AS unfolded
