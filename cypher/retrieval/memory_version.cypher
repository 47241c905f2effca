// The memory's write version: the projection is rebuilt only when it changed.
OPTIONAL MATCH (m:MemoryState {space: $space})
RETURN coalesce(m.version, 0) AS version
