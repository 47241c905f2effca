// An entity's own name (the normalised name its id is the hash of) found by seek on the entity itself: as
// an Alias node it was 97 % of the Alias nodes (MuSiQue: 19,137 for 18,696 entities), a node and an
// ALIAS_OF per entity. Alias nodes stay for the other names (merged by similarity, unmerged). Entities
// written before the key existed get it from memory/alias_keys.py (run after this folder).
CREATE INDEX entity_name_key IF NOT EXISTS
FOR (n:Entity) ON (n.space, n.key)
