// One Schema per (space, id): ids are content hashes, so MERGE on them is idempotent.
CREATE CONSTRAINT schema_key IF NOT EXISTS
FOR (n:Schema) REQUIRE (n.space, n.id) IS UNIQUE
