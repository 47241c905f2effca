// The space's memory version now: every write that changes the memory moves it on by one
// (cypher/memory/bump_version). The writer's in-process vector copies hold a version; while it is the
// space's, they are used without counting the space (memory/neighbours.py SpaceVectors).
OPTIONAL MATCH (m:MemoryState {space: $space})
RETURN coalesce(m.version, 0) AS version
