// One Fact per (space, id): ids are content hashes, so MERGE on them is idempotent.
CREATE CONSTRAINT fact_key IF NOT EXISTS
FOR (n:Fact) REQUIRE (n.space, n.id) IS UNIQUE
