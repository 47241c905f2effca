// The memory's write version and whether the projection for it exists (one round trip).
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH coalesce(m.version, 0) AS version
CALL gds.graph.exists($prefix + toString(version) + $suffix) YIELD exists
RETURN version, exists
