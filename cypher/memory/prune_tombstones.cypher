// Retraction, last step: tombstones older than $versions versions, or beyond the newest $count, go, so
// they do not grow forever. MemoryState.tombstones_from keeps the newest stamp pruned: a copy older than
// that can no longer learn everything deleted since, and is read whole (repository/changes.py). In the
// transaction that bumps the version (first), so a copy reading the changes meanwhile reads again.
MATCH (m:MemoryState {space: $space})
WITH m, COLLECT {
  MATCH (t:Tombstone)
  WHERE t.space = $space AND t.changed IS NOT NULL
  RETURN t.changed AS changed ORDER BY changed DESC SKIP $count LIMIT 1
} AS beyond
WITH m, CASE WHEN beyond = [] OR beyond[0] < m.version - $versions THEN m.version - $versions
             ELSE beyond[0] END AS cutoff
CALL (cutoff) {
  MATCH (t:Tombstone)
  WHERE t.space = $space AND t.changed <= cutoff
  WITH t, t.changed AS changed
  DELETE t
  RETURN max(changed) AS pruned, count(*) AS deleted
}
SET m.tombstones_from = CASE WHEN pruned > coalesce(m.tombstones_from, 0) THEN pruned ELSE m.tombstones_from END
RETURN deleted, m.tombstones_from AS pruned
