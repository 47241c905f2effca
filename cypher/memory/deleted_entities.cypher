// The entities deleted after version $since: the tombstones a retraction leaves (cypher/memory/
// retract_entities), for the writer's entity copy (memory/neighbours.py SpaceVectors.moved). pruned: the
// newest stamp of the tombstones pruned (cypher/memory/prune_tombstones); above $since not all are known.
OPTIONAL MATCH (m:MemoryState {space: $space})
CALL () {
  MATCH (t:Tombstone {space: $space})
  WHERE t.changed > $since AND t.kind = 'entity'
  RETURN collect(t.id) AS ids
}
RETURN ids, coalesce(m.tombstones_from, 0) AS pruned
