// Retrieval copies catch up by reading what changed since the version they hold (retrieval/changes.py):
// a seek on the space and the write's version stamp (repository/batch.py), not a scan of the space.
CREATE INDEX schema_changed IF NOT EXISTS
FOR (n:Schema) ON (n.space, n.changed)
