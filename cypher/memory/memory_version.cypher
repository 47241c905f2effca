// The space's memory version now (0 for a space never written): every write that changes the memory moves
// it on by one (cypher/memory/bump_version). What per-version caches key on; the writer's in-process vector
// copies hold a version too, used without counting the space while it is the space's (memory/neighbours.py).
OPTIONAL MATCH (m:MemoryState {space: $space})
RETURN coalesce(m.version, 0) AS version
