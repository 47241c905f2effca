// Remove everything one memory space holds, in batches, except its IngestLease: the delete holds that lease
// (marked deleting) while this runs, so ingests wait or refuse, and gives it back last (memory/lease.py).
// Idempotent: a delete killed half-way is finished by running it again.
MATCH (n) WHERE n.space = $space AND NOT n:IngestLease
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
