// At most one IngestLease per space: two ingests that MERGE it at once get the same node, so only one can
// hold it (memory/lease.py).
CREATE CONSTRAINT ingest_lease_key IF NOT EXISTS
FOR (n:IngestLease) REQUIRE n.space IS UNIQUE
