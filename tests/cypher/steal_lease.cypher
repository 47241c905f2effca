// Another process takes a space's ingest lease (as one does once it expired), for a delete or an ingest.
MATCH (l:IngestLease {space: $space})
SET l.holder = $holder, l.host = $host, l.pid = $pid, l.deleting = $deleting, l.renewed_at = datetime.realtime()
