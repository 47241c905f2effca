// The memory's write version (bumped by every write that changes it); 0 for a space never written.
OPTIONAL MATCH (m:MemoryState {space: $space})
RETURN coalesce(m.version, 0) AS version
