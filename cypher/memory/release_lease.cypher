// The end of an ingest (finished or failed): the lease node goes, if it is still ours.
MATCH (l:IngestLease {space: $space, holder: $holder})
DELETE l
RETURN count(*) AS released
