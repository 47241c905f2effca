// The holder's hold on its lease: its heartbeat, and the first statement of every write transaction of an
// ingest (GraphStore.guarded). The SET takes the node's write lock before its holder is read, so a taker
// (a delete, an ingest after expiry) commits either before this transaction, which then sees it, or after.
// renewed_at moves on only for the holder; no row: the lease node is gone (the space was deleted).
MATCH (l:IngestLease {space: $space})
SET l.locked = true
REMOVE l.locked
SET l.renewed_at = CASE WHEN l.holder = $holder THEN datetime.realtime() ELSE l.renewed_at END
RETURN l.holder = $holder AS granted, l.holder AS holder, l.host AS host, l.pid AS pid, l.started AS started,
       duration.inSeconds(l.renewed_at, datetime.realtime()).seconds AS idle, coalesce(l.deleting, false) AS deleting
