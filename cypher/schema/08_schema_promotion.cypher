// Promotion asks for the candidates of a space at or above a frequency: an index seek, not a scan of
// every schema after every batch.
CREATE INDEX schema_promotion IF NOT EXISTS
FOR (n:Schema) ON (n.space, n.state, n.frequency)
