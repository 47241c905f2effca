// Copies read the tombstones stamped after the version they hold, and a retraction prunes the old ones:
// a seek on the space and the stamp, as for the other labels' `changed` (24-28).
CREATE INDEX tombstone_changed IF NOT EXISTS
FOR (n:Tombstone) ON (n.space, n.changed)
