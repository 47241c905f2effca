// Migration to the entity's own name key (memory/alias_keys.py): a page of one space's Alias nodes after
// $after that record no merge, with the entities they name. memory/alias_keys.py keeps those whose name
// is their one entity's own (its id is the name's hash: an unmerged name's too); a merge written before
// merges were recorded is no own name, and stays an Alias.
MATCH (a:Alias {space: $space})
WHERE a.id > $after AND a.merged_by IS NULL
WITH a ORDER BY a.id LIMIT $batch
RETURN a.id AS key, [(a)-[:ALIAS_OF]->(e:Entity) | e.id] AS entity_ids
