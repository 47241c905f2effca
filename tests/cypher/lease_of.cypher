// Who holds a space's ingest lease (no row: nobody).
MATCH (l:IngestLease {space: $space})
RETURN l.holder AS holder, l.pid AS pid, coalesce(l.deleting, false) AS deleting
