// One Conflict per (space, id): the id hashes the group's fact ids, so two adjudications that find the same
// group (an ingest and a `conflicts scan` at once) MERGE one node instead of creating it twice.
CREATE CONSTRAINT conflict_key IF NOT EXISTS
FOR (n:Conflict) REQUIRE (n.space, n.id) IS UNIQUE
