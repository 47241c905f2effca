// Migration to the entity's own name key (memory/alias_keys.py): the spaces that hold Alias nodes.
MATCH (a:Alias)
RETURN DISTINCT a.space AS space
ORDER BY space
