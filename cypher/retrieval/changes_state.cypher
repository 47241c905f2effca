// The memory version and `full`, the last version written without stamps (cypher/memory/bump_version):
// a copy that holds a version below `full` is read again whole, else it reads only what changed.
OPTIONAL MATCH (m:MemoryState {space: $space})
RETURN coalesce(m.version, 0) AS version, coalesce(m.full, 0) AS full
