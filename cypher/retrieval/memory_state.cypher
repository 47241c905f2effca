// The memory's write version and the PPR projections in GDS whose names start with $prefix (this
// space's, named by retrieval/projection.py), in one round trip: a projection is rebuilt only when
// the version moved, and stale ones are dropped.
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH coalesce(m.version, 0) AS version
CALL () {
  CALL gds.graph.list() YIELD graphName
  WHERE graphName STARTS WITH $prefix
  RETURN collect(graphName) AS graphs
}
RETURN version, graphs
