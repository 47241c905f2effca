// One Entity per (space, id): ids are content hashes, so MERGE on them is idempotent.
CREATE CONSTRAINT entity_key IF NOT EXISTS
FOR (n:Entity) REQUIRE (n.space, n.id) IS UNIQUE
