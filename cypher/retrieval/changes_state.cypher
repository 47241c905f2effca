// The memory version and `full`, the last version written without stamps (cypher/memory/bump_version):
// a copy that holds a version below `full` is read again whole, else it reads only what changed.
// pruned: the newest stamp of the tombstones pruned (cypher/memory/prune_tombstones): a copy older than
// that cannot learn all that was deleted since, and is read whole too.
// mentions: every space's MENTIONS relationships, from the count store (no scan): the space counts'
// bound for the seed statistics (retrieval/statistics.py), kept current without cypher/retrieval/space_counts.
// epoch: this incarnation of the space (cypher/memory/bump_version), null before its first write.
OPTIONAL MATCH (m:MemoryState {space: $space})
CALL () { MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions }
RETURN coalesce(m.version, 0) AS version, coalesce(m.full, 0) AS full, coalesce(m.tombstones_from, 0) AS pruned,
       mentions, m.epoch AS epoch
