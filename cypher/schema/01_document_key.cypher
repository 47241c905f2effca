// One Document per (space, id): ids are content hashes, so MERGE on them is idempotent.
CREATE CONSTRAINT document_key IF NOT EXISTS
FOR (n:Document) REQUIRE (n.space, n.id) IS UNIQUE
