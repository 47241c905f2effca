// The holder's heartbeat: moves renewed_at on while the ingest runs. No row: the lease is not ours any more.
MATCH (l:IngestLease {space: $space, holder: $holder})
SET l.renewed_at = datetime.realtime()
RETURN l.holder AS holder
