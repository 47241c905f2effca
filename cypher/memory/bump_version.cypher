// Every ingest batch that wrote something bumps the version (invalidates the PPR projection).
MERGE (m:MemoryState {space: $space})
SET m.version = coalesce(m.version, 0) + 1, m.updated_at = datetime()
RETURN m.version AS version
