// One Tombstone per (space, kind, id): what a retraction deleted, stamped with its version, so retrieval
// copies remove it when they catch up (repository/changes.py); MERGE on it is idempotent.
CREATE CONSTRAINT tombstone_key IF NOT EXISTS
FOR (n:Tombstone) REQUIRE (n.space, n.kind, n.id) IS UNIQUE
