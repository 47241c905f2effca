// Take the space's ingest lease if it is free: nobody holds it, we do, its holder is `$stale` (a process
// the caller found dead), or it was not renewed for `$expiry` seconds. The first SET takes the node's write
// lock before anything is read, so two takers cannot both see it free. Times are the server's clock.
// version: the space's memory version as the lease is taken (a holder's writer trusts it, and the versions
// its own writes make, instead of reading it before each use: memory/lease.py version_under_lease).
// A lease marked `deleting` (a space deletion holds it, or died holding it) is never granted to an ingest
// (`$deleting` false): the space is half gone until a delete finishes. A delete marks the lease it takes.
MERGE (l:IngestLease {space: $space})
SET l.locked = true
REMOVE l.locked
WITH l, (l.holder IS NULL OR l.holder = $holder OR l.holder = $stale
         OR l.renewed_at < datetime.realtime() - duration({seconds: $expiry})) AS free
WITH l, free AND ($deleting OR NOT coalesce(l.deleting, false) OR l.holder IS NULL) AS free
SET l += CASE WHEN free THEN {holder: $holder, host: $host, pid: $pid, started: $started,
                              acquired_at: datetime.realtime(), renewed_at: datetime.realtime(),
                              deleting: CASE WHEN $deleting THEN true ELSE null END}
              ELSE {} END
WITH l
OPTIONAL MATCH (m:MemoryState {space: $space})
RETURN l.holder = $holder AS granted, coalesce(m.version, 0) AS version, l.holder AS holder, l.host AS host,
       l.pid AS pid, l.started AS started,
       duration.inSeconds(l.renewed_at, datetime.realtime()).seconds AS idle, coalesce(l.deleting, false) AS deleting
