// The Tombstone nodes of a space (what retractions deleted, for the retrieval copies).
MATCH (t:Tombstone {space: $space})
RETURN count(t) AS tombstones
