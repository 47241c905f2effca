// The space's epoch, set now if a space written before epochs existed has none (cypher/memory/bump_version
// sets it on every write). No row: the space was never written. The copies kept on disk name it
// (retrieval/persisted.py): a space deleted and written again has a new epoch, and ignores them.
MATCH (m:MemoryState {space: $space})
SET m.epoch = coalesce(m.epoch, randomUUID())
RETURN m.epoch AS epoch
