// A memory as code without passage title keys left it: no title_key on the space's passages, and the
// version bumped as that code bumps it (title_keys left behind).
MATCH (m:MemoryState {space: $space})
SET m.version = m.version + 1
WITH m
MATCH (p:Passage {space: $space})
REMOVE p.title_key
RETURN count(p) AS passages
